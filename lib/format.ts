/** 90 → "1 min 30 s", 86400 → "24 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) {
    const m = Math.floor(seconds / 60);
    const s = seconds % 60;
    return s ? `${m} min ${s} s` : `${m} min`;
  }
  if (seconds < 172_800) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  return `${Math.round(seconds / 86_400)} days`;
}

/** Currencies whose amounts have no minor unit (1 JPY is 1 minor unit). */
export const ZERO_DECIMAL_CURRENCIES: readonly string[] = ["JPY"];

/** 123456n EUR → "€1,234.56"; amounts travel as minor units (bigint or string). */
export function formatAmount(amountMinor: bigint | string | number | null, currency: string | null): string {
  if (amountMinor === null || currency === null) return "—";
  const minor = Number(amountMinor);
  const major = ZERO_DECIMAL_CURRENCIES.includes(currency) ? minor : minor / 100;
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(major);
  } catch {
    return `${major} ${currency}`;
  }
}

/** A short age: "45 s", "12 min", "3 h", "2 d". */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

/** "2026-11-29 12:34:56 UTC" (or to the minute); "—" for no time. */
export function formatUtc(d: Date | null | undefined, precision: "second" | "minute" = "second"): string {
  if (!d) return "—";
  return `${d
    .toISOString()
    .replace("T", " ")
    .slice(0, precision === "second" ? 19 : 16)} UTC`;
}

/** The stable deep link of an intent. */
export function intentPath(intent: { tenantId: string; intentKey: string }): string {
  return `/intents/${encodeURIComponent(intent.tenantId)}/${encodeURIComponent(intent.intentKey)}`;
}
