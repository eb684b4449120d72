/** Expected failures of console actions: shown to the user as they are, never as a 500. */
export type ResolutionErrorCode =
  | "not_found"
  | "stale"
  | "claimed"
  | "evidence"
  | "duplicate_submission"
  | "invalid"
  | "needs_approval"
  /** Another request for this intent is waiting for approval. */
  | "pending";

export class ResolutionError extends Error {
  constructor(
    readonly code: ResolutionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ResolutionError";
  }

  get status(): number {
    return this.code === "not_found" ? 404 : this.code === "invalid" || this.code === "evidence" ? 422 : 409;
  }
}
