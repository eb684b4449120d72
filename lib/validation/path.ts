const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/**
 * One segment of a page's URL as text, or null when it is not text a record could be
 * named by: bad percent-encoding, control characters, a lone surrogate, or too long.
 * A page answers null with its 404, never by sending the text to a query.
 */
export function pathSegment(raw: string, maxLength = 255): string | null {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (text.length === 0 || text.length > maxLength || UNSAFE.test(text) || !text.isWellFormed()) return null;
  return text;
}
