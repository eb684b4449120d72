/**
 * One CSV cell: quoted when needed, objects as JSON, and a leading = + - @ defused
 * so a spreadsheet never runs an exported value as a formula.
 */
export function csvCell(value: unknown): string {
  const s =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value);
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
