/**
 * The headers every response of the console carries. The Content-Security-Policy lets
 * scripts run only with this response's nonce (Next.js puts it on its own scripts) and
 * nothing inline; styles load from the site itself, and style attributes (the widths of
 * the bars in the charts) are allowed. No page may be framed.
 */
export function contentSecurityPolicy(
  nonce: string,
  o: { https: boolean; dev: boolean; formTargets?: string[] },
) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${o.dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Sign-in with SSO leaves for the identity provider after a form post.
    `form-action 'self'${o.formTargets?.length ? ` ${o.formTargets.join(" ")}` : ""}`,
    "frame-ancestors 'none'",
    ...(o.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function securityHeaders(o: { https: boolean }): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "cross-origin-opener-policy": "same-origin",
    // Only over https: a browser that saw it would refuse plain http to this host for two years.
    ...(o.https ? { "strict-transport-security": "max-age=63072000; includeSubDomains" } : {}),
  };
}
