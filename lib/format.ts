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

/** How many digits of a currency's amount are its minor unit: 2 (cents), or 0 for JPY. */
export function minorDigits(currency: string): 0 | 2 {
  return ZERO_DECIMAL_CURRENCIES.includes(currency) ? 0 : 2;
}

/** 123456n EUR → "€1,234.56"; amounts travel as minor units (bigint or string). */
export function formatAmount(amountMinor: bigint | string | number | null, currency: string | null): string {
  if (amountMinor === null || currency === null) return "—";
  const minor = Number(amountMinor);
  const major = minor / 10 ** minorDigits(currency);
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(major);
  } catch {
    return `${major} ${currency}`;
  }
}

/** Minor units as a person types the major amount: 100000n USD → "1000.00", 150000n JPY → "150000". */
export function majorAmountText(amountMinor: bigint | string, currency: string): string {
  const digits = minorDigits(currency);
  const text = BigInt(amountMinor).toString();
  if (digits === 0) return text;
  const padded = text.padStart(digits + 1, "0");
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** At most this many digits in minor units: what the amount columns (bigint) hold with room to spare. */
const MAX_MINOR_DIGITS = 15;

/**
 * A major amount as a person types it ("1,000.00", "1000", "150000" for JPY) in minor
 * units, or why it is not one: digits with optional thousands separators, and at most
 * as many decimals as the currency has (none for JPY). Exact: no floating point.
 */
export function parseMajorAmount(
  text: string,
  currency: string,
): { ok: true; minor: bigint } | { ok: false; message: string } {
  const digits = minorDigits(currency);
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(text.trim());
  const unit =
    digits === 0 ? `whole ${currency} (it has no minor unit)` : `${currency} with at most ${digits} decimals`;
  if (!match)
    return { ok: false, message: `an amount in ${unit}, such as ${majorAmountText(100_000n, currency)}.` };
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return { ok: false, message: `an amount in ${unit}.` };
  const minorText = (match[1]!.replaceAll(",", "") + fraction.padEnd(digits, "0")).replace(/^0+(?=\d)/, "");
  if (minorText.length > MAX_MINOR_DIGITS) return { ok: false, message: "too large an amount." };
  return { ok: true, minor: BigInt(minorText) };
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
