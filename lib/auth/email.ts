/** An email as Reckon keys users by it: sign-in, SSO and the users screen all normalise it this way. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
