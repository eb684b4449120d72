import { z } from "zod";

/**
 * Where a page ends, in the inbox's order: the last row's sort key (bucket, key, id).
 * `asOf` is the first page's time: the act-before order splits rows into "still
 * rejectable" and "past" by it, and every later page splits at the same moment, so a
 * deadline passing while someone pages never shows a row twice or skips one.
 */
export type Cursor = {
  asOf: string;
  /** 0: deadline ahead, 1: no deadline, 2: deadline passed (always 0 in the oldest-first order). */
  b: 0 | 1 | 2;
  /** The row's key in its bucket: its deadline, or (without one, and oldest first) its time. */
  k: string;
  id: string;
};

const cursorShape = z.object({
  asOf: z.iso.datetime(),
  b: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  k: z.iso.datetime(),
  id: z.uuid(),
});

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

export function decodeCursor(s: string | undefined): Cursor | null {
  if (!s) return null;
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(s, "base64url").toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
