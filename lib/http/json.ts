/** JSON-safe data for a route's JSON answer: BigInt amounts become strings (server actions need no such step). */
export function toJson<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
}
