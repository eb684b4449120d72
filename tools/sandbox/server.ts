/**
 * The sandbox provider: a real HTTP server with two providers behind it.
 *  - payments at /v1/…: a Stripe-compatible subset (charges, refunds, search), with
 *    Idempotency-Key semantics, key retention and search visibility lag;
 *  - mailer at /mailer/v1/…: no idempotency at all, like many email APIs.
 * Control endpoints under /_… inject faults, move the clock and expose the ground truth.
 *
 * http.ts serves and routes; payments.ts, mailer.ts and control.ts answer; idempotency.ts
 * holds the Idempotency-Key rules and faults.ts the injected faults.
 */
export { createSandboxServer, listen } from "./http";
