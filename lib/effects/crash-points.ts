/** Named points where the ugly-path tests kill the worker process (runEffect calls its hook there). */
export const CRASH_POINTS = [
  "before_dispatch",
  "after_dispatch",
  "after_response",
  "during_receipt",
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];
