/**
 * Paces calls to a provider to its published rate limit within this process (a
 * token bucket per provider). Bulk lookups wait their turn instead of earning 429s.
 */
type Bucket = { tokens: number; updated: number; rate: number; queue: Promise<void> };

const buckets = new Map<string, Bucket>();

export function rateLimiter(providerId: string, perSecond: number) {
  let bucket = buckets.get(providerId);
  if (!bucket || bucket.rate !== perSecond) {
    bucket = { tokens: perSecond, updated: Date.now(), rate: perSecond, queue: Promise.resolve() };
    buckets.set(providerId, bucket);
  }
  const b = bucket;
  return {
    take(): Promise<void> {
      const turn = b.queue.then(async () => {
        const refill = () => {
          const t = Date.now();
          b.tokens = Math.min(b.rate, b.tokens + ((t - b.updated) / 1000) * b.rate);
          b.updated = t;
        };
        refill();
        if (b.tokens < 1) {
          await new Promise((resolve) => setTimeout(resolve, ((1 - b.tokens) / b.rate) * 1000));
          refill();
        }
        b.tokens -= 1;
      });
      b.queue = turn;
      return turn;
    },
  };
}
