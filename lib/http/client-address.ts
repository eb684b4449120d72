import { sha256Hex } from "@/lib/digest";

/**
 * The address a request came from, for throttling. Next.js puts the socket's address in
 * X-Forwarded-For when no proxy did; each trusted reverse proxy appends the address it
 * saw. Exposed directly (no trusted proxy), a client can send its own X-Forwarded-For and
 * Next.js keeps it — so deployments put Reckon behind a proxy and set TRUSTED_PROXIES.
 */
export function clientAddress(headers: Headers, trustedProxies: number): string {
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  return chain[Math.max(0, chain.length - Math.max(1, trustedProxies))] ?? "unknown";
}

/** What is stored about a client address: a digest, never the address (it is personal data). */
export function clientDigest(headers: Headers, trustedProxies: number): string {
  return sha256Hex(`client-address:${clientAddress(headers, trustedProxies)}`);
}
