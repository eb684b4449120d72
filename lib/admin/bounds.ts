/** Sane bounds for what an admin may set on a provider profile (seconds, or requests per second). */
export const PROFILE_BOUNDS = {
  responseWindowSeconds: { label: "Normal response window", min: 1, max: 86_400 },
  keyRetentionSeconds: { label: "Key retention", min: 3_600, max: 90 * 86_400 },
  visibilityDelaySeconds: { label: "Maximum visibility delay", min: 0, max: 3_600 },
  rateLimitPerSecond: { label: "Rate limit", min: 1, max: 1_000 },
} as const;
