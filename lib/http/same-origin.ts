/**
 * Whether a state-changing request comes from a page of this site. A browser marks a
 * request from another site with Sec-Fetch-Site and an Origin of that site; a request
 * with neither (a script, curl) is not a browser someone was tricked into using, and
 * the session and role checks decide it like any other.
 */
export function isCrossSite(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = headers.get("origin");
  if (!origin) return false;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}
