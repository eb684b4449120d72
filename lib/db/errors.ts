/**
 * PostgreSQL failures recognised by code, never by message text. Prisma reports them
 * as P2002 / P2034 for model queries and as P2010 with the driver adapter's cause for
 * raw ones; both carry the original SQLSTATE.
 */
type AdapterCause = {
  originalCode?: string;
  kind?: string;
  constraint?: { index?: string; fields?: string[] };
};

function adapterCause(error: unknown): AdapterCause | null {
  if (typeof error !== "object" || error === null) return null;
  const meta = (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } }).meta;
  return meta?.driverAdapterError?.cause ?? null;
}

function prismaCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : null;
}

/** A unique violation, optionally of the named index (e.g. "resolutions_submission_key_key"). */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  const cause = adapterCause(error);
  const unique = prismaCode(error) === "P2002" || cause?.originalCode === "23505";
  if (!unique) return false;
  if (!index) return true;
  return cause?.constraint?.index === index || (cause?.constraint?.fields ?? []).includes(index);
}

/** A serialization failure or deadlock: the transaction was rolled back and may be run again. */
export function isRetryableConflict(error: unknown): boolean {
  const cause = adapterCause(error);
  return (
    prismaCode(error) === "P2034" ||
    cause?.originalCode === "40001" ||
    cause?.originalCode === "40P01" ||
    cause?.kind === "TransactionWriteConflict"
  );
}

/** The transaction could not start in time or ran past its timeout: rolled back, nothing committed. */
export function isTransactionTimeout(error: unknown): boolean {
  return prismaCode(error) === "P2028";
}

/** A NUL byte or an invalid byte sequence reached PostgreSQL (22021) — bad input, not a server fault. */
export function isBadEncoding(error: unknown): boolean {
  const cause = adapterCause(error);
  return cause?.originalCode === "22021" || cause?.originalCode === "22P05";
}

/** Contention outlasted the bounded retries: nothing was changed, and trying again is safe. */
export class ContentionError extends Error {
  readonly code = "busy";
  constructor() {
    super("Too many changes to this at the same moment; nothing was changed. Try again.");
    this.name = "ContentionError";
  }
}
