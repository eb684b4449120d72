import { Readable } from "node:stream";
import { stringify } from "csv-stringify";

export type CsvColumn<T> = [name: string, value: (row: T) => unknown];

/**
 * A CSV download streamed from rows read page by page, through csv-stringify: quoting,
 * and formula escaping (a cell starting with = + - @, a tab or a CR is prefixed with a
 * quote, so a spreadsheet never runs an exported value). The first rows are read before
 * the answer starts (a failure there is a plain error status, not a 200 cut off midway),
 * `started` runs only then (the export's audit event records an export that begins), and
 * later rows are read as the client takes them: Node's pipe carries the backpressure.
 */
export async function csvDownload<T>(
  rows: AsyncIterable<T>,
  columns: CsvColumn<T>[],
  o: { filename: string; started: () => Promise<void>; headers?: Record<string, string> },
): Promise<Response> {
  const iterator = rows[Symbol.asyncIterator]();
  let next = await iterator.next();
  await o.started();
  async function* records() {
    try {
      while (!next.done) {
        yield columns.map(([, value]) => value(next.value));
        next = await iterator.next();
      }
    } finally {
      await iterator.return?.();
    }
  }
  const csv = Readable.from(records()).pipe(
    stringify({
      header: true,
      columns: columns.map(([name]) => name),
      escape_formulas: true,
      cast: { object: (v) => JSON.stringify(v), date: (d) => d.toISOString(), boolean: (b) => String(b) },
    }),
  );
  return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${o.filename}"`,
      ...o.headers,
    },
  });
}
