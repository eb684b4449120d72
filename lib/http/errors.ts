import { randomUUID } from "node:crypto";
import { AuthError } from "@/lib/auth/errors";
import { ContentionError, isBadEncoding } from "@/lib/db/errors";
import { LedgerError } from "@/lib/ledger/protocol";
import { ResolutionError } from "@/lib/resolution/errors";

/** What a person is told when an action or route fails: a code, a plain message, an error id if it was ours. */
export type FailureBody = { code: string; message: string; errorId?: string };

/**
 * One answer for every failure, shared by server actions and route handlers: expected
 * refusals as they are, anything else as a plain message with an id that is in the
 * server log. No database or library text ever reaches the caller.
 */
export function describeFailure(error: unknown, where: string): { status: number; body: FailureBody } {
  if (error instanceof AuthError)
    return {
      status: error.code === "unauthenticated" ? 401 : 403,
      body: { code: error.code, message: error.message },
    };
  if (error instanceof ResolutionError)
    return { status: error.status, body: { code: error.code, message: error.message } };
  if (error instanceof LedgerError)
    return { status: 409, body: { code: "conflict", message: error.message } };
  if (error instanceof ContentionError)
    return { status: 409, body: { code: error.code, message: error.message } };
  if (isBadEncoding(error))
    return {
      status: 422,
      body: {
        code: "invalid",
        message: "The input holds characters that cannot be stored (such as a NUL byte).",
      },
    };
  const errorId = randomUUID();
  console.error(`[${errorId}] ${where} failed`, error);
  return {
    status: 500,
    body: { code: "internal", message: `Something went wrong on our side (error id ${errorId}).`, errorId },
  };
}
