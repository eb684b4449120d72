import type { EffectIntent } from "@/prisma/generated/client";
import { prepareCompensation } from "@/lib/ledger/compensation";
import { beginDispatch, confirm, markUnknown, reject, retryAttempt } from "@/lib/ledger/dispatch";
import { LedgerError, prepare } from "@/lib/ledger/protocol";
import type { CrashPoint } from "./crash-points";
import { plan, type Planned } from "./plan";
import type { EffectJob, JobResult, WorkerDeps } from "./types";

export { CRASH_POINTS } from "./crash-points";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one effect through the protocol: prepare → dispatch → call → receipt,
 * rejection or unknown. It never sends an intent that is unknown, needs an
 * operator, or is leased by another worker, and it never mints a new key.
 */
export async function runEffect(deps: WorkerDeps, job: EffectJob): Promise<JobResult> {
  const now = deps.now ?? (() => new Date());
  const crash = async (point: CrashPoint) => deps.crash?.(point);
  const result = (
    intent: EffectIntent | null,
    outcome: JobResult["outcome"],
    detail?: string,
  ): JobResult => ({
    intentKey: job.intentKey,
    intentId: intent?.id ?? null,
    outcome,
    detail,
  });

  const planned = await plan(deps, job);
  if (!("prepare" in planned)) return planned;

  let intent: EffectIntent;
  try {
    intent = planned.compensatesId
      ? (
          await prepareCompensation(
            deps.db,
            { ...planned.prepare, compensatesId: planned.compensatesId },
            now(),
          )
        ).intent
      : (await prepare(deps.db, planned.prepare, now())).intent;
  } catch (error) {
    if (error instanceof LedgerError)
      return result(null, error.code === "key_reuse_conflict" ? "key_conflict" : "refused", error.message);
    throw error;
  }
  if (intent.status === "confirmed" || intent.status === "compensating" || intent.status === "compensated") {
    return result(intent, "already_confirmed");
  }
  await crash("before_dispatch");

  let dispatch;
  try {
    dispatch = await beginDispatch(
      deps.db,
      { intentId: intent.id, owner: deps.workerId, leaseMs: deps.leaseMs, audit: deps.audit },
      now(),
    );
  } catch (error) {
    if (error instanceof LedgerError)
      return result(intent, error.code === "frozen" ? "frozen" : "busy", error.message);
    throw error;
  }
  await crash("after_dispatch");

  return sendDispatched(deps, dispatch, planned, result);
}

/**
 * Sends a dispatched intent's request and records the answer: receipt, rejection, or
 * unknown. Retries with the same key only what is safe to retry (nothing ran, or an
 * idempotent provider's 5xx). Used by runEffect and by the reconciler's redispatch.
 */
export async function sendDispatched(
  deps: WorkerDeps,
  dispatch: { intent: EffectIntent; attempt: { id: string } },
  planned: Pick<Planned, "call" | "idempotent">,
  result: (intent: EffectIntent | null, outcome: JobResult["outcome"], detail?: string) => JobResult,
): Promise<JobResult> {
  const now = deps.now ?? (() => new Date());
  const crash = async (point: CrashPoint) => deps.crash?.(point);
  const intent = dispatch.intent;
  let attempt = dispatch.attempt;
  for (let n = 1; ; n++) {
    const outcome = await planned.call();
    const completion = {
      intentId: intent.id,
      owner: deps.workerId,
      attemptId: attempt.id,
      audit: deps.audit,
      settledBy: deps.settledBy,
    };
    try {
      switch (outcome.kind) {
        case "ok": {
          await crash("after_response");
          const confirmed = await confirm(
            deps.db,
            {
              ...completion,
              providerResultId: outcome.resultId,
              responseDigest: outcome.responseDigest,
              providerRequestId: outcome.providerRequestId,
              beforeCommit: () => crash("during_receipt"),
            },
            now(),
          );
          return result(confirmed, "confirmed");
        }
        case "definitive":
          return result(
            await reject(
              deps.db,
              { ...completion, errorClass: outcome.errorClass, responseDigest: outcome.responseDigest },
              now(),
            ),
            "rejected",
            outcome.errorClass,
          );
        case "not_executed":
        case "ambiguous": {
          // Same key again is safe when nothing ran (429), or when the provider
          // deduplicates by key (a 5xx from an idempotent provider). A timeout or a lost
          // answer is never retried automatically: it becomes unknown.
          const retrySafe =
            outcome.kind === "not_executed" ||
            (planned.idempotent && /^http_5\d\d$/.test(outcome.errorClass));
          if (retrySafe && n < deps.maxAttempts) {
            await sleep(deps.retryDelayMs * 2 ** (n - 1));
            attempt = (
              await retryAttempt(
                deps.db,
                {
                  ...completion,
                  leaseMs: deps.leaseMs,
                  previousAttemptId: attempt.id,
                  errorClass: outcome.errorClass,
                },
                now(),
              )
            ).attempt;
            continue;
          }
          if (outcome.kind === "not_executed") {
            return result(
              await reject(deps.db, { ...completion, errorClass: outcome.errorClass }, now()),
              "rejected",
              outcome.errorClass,
            );
          }
          const unknown = await markUnknown(
            deps.db,
            { ...completion, errorClass: outcome.errorClass, needsOperator: outcome.needsOperator },
            now(),
          );
          return result(unknown, "unknown", outcome.errorClass);
        }
      }
    } catch (error) {
      if (error instanceof LedgerError) return result(intent, "busy", error.message);
      throw error;
    }
  }
}
