/** Only same-site paths: a crafted link must not send people elsewhere after sign-in. */
export function safeCallbackUrl(value: unknown): string {
  if (
    typeof value !== "string" ||
    !value.startsWith("/") ||
    value.startsWith("//") ||
    value.startsWith("/\\")
  )
    return "/";
  if (value.startsWith("/login")) return "/";
  return value;
}
