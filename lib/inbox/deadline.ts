import { formatAge } from "@/lib/format";

/** Under this long before the provider forgets the key, the inbox flags it. */
export const KEY_EXPIRES_SOON_MS = 2 * 3_600_000;

/** "in 3 h", "passed 2 d ago", or "no key deadline" (a provider without idempotency keys). */
export function actBeforeText(actBefore: string | null, now: number): string {
  if (!actBefore) return "no key deadline";
  const left = Date.parse(actBefore) - now;
  return left > 0 ? `in ${formatAge(left)}` : `passed ${formatAge(-left)} ago`;
}

/** Whether the key is still kept but only for a little longer. */
export function keyExpiresSoon(actBefore: string | null, now: number): boolean {
  if (!actBefore) return false;
  const left = Date.parse(actBefore) - now;
  return left > 0 && left < KEY_EXPIRES_SOON_MS;
}
