/** Refusals of who may do what: shown as they are, never as a 500. Framework-free, so services can throw it. */
export class AuthError extends Error {
  constructor(
    readonly code: "unauthenticated" | "forbidden",
    message = code === "unauthenticated" ? "Sign in first." : "Your role does not allow this.",
  ) {
    super(message);
    this.name = "AuthError";
  }
}
