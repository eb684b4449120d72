import "server-only";
import { headers } from "next/headers";

/**
 * The page the visitor came from, as a same-origin path for a plain "previous page"
 * link (works without JavaScript), or null when the referrer is missing, foreign or
 * the same page. Never an open redirect: only the path and query of our own origin.
 */
export async function previousPage(current?: string): Promise<string | null> {
  const h = await headers();
  const referer = h.get("referer");
  const host = h.get("x-forwarded-host") ?? h.get("host");
  if (!referer || !host) return null;
  try {
    const url = new URL(referer);
    if (url.host !== host) return null;
    const path = url.pathname + url.search;
    if (path === current || url.pathname === "/login") return null;
    return path;
  } catch {
    return null;
  }
}
