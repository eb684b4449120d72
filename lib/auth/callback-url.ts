// Where a person may be sent after signing in (or "back to"): only a path on this site.
// The target is parsed the way a browser parses it — tab, CR and LF removed, a backslash
// read as a slash — against our own origin, and anything that lands elsewhere is refused.
const BASE = "http://reckon.invalid";

export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "/";
  // Only paths: an absolute URL (even one of ours) or a scheme-relative one is refused.
  if (!value.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Rebuilt from the parsed URL, so it holds no control characters; never back to sign-in.
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/login")) return "/";
  return target;
}
