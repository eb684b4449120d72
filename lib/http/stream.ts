/**
 * A download streamed from rows read page by page. The first rows are read before the
 * answer starts — so a failure there is a plain error status, not a 200 cut off midway —
 * and `started` runs only then (the export's audit event records an export that begins).
 * Later rows are read as the client takes them (pull), so a slow reader slows the query
 * instead of filling memory.
 */
export async function streamRows<T>(
  rows: AsyncIterable<T>,
  o: { head?: string; line: (row: T) => string; tail?: () => string; started: () => Promise<void> },
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  let next = await iterator.next();
  await o.started();
  let headSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headSent) {
        headSent = true;
        if (o.head) controller.enqueue(encoder.encode(o.head));
      }
      if (next.done) {
        if (o.tail) controller.enqueue(encoder.encode(o.tail()));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(o.line(next.value)));
      next = await iterator.next();
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
