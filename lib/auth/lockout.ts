/** Consecutive failures allowed before the account is locked. */
export const FREE_ATTEMPTS = 5;
const BASE_LOCK_MS = 60_000;
export const MAX_LOCK_MINUTES = 60;
const MAX_LOCK_MS = MAX_LOCK_MINUTES * 60_000;

/**
 * After the free attempts, each further failure locks the account for twice as
 * long as the one before: 1, 2, 4 … minutes, at most an hour. (The sign-in's own
 * compare-and-set computes the same in SQL; the unit tests hold the two together.)
 */
export function lockUntilAfterFailure(failuresIncludingThis: number, now: Date): Date | null {
  if (failuresIncludingThis < FREE_ATTEMPTS) return null;
  const exponent = failuresIncludingThis - FREE_ATTEMPTS;
  const ms = Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** Math.min(exponent, 20));
  return new Date(now.getTime() + ms);
}

export function isLocked(lockedUntil: Date | null, now: Date): boolean {
  return lockedUntil !== null && lockedUntil.getTime() > now.getTime();
}
