"use client";

import { useEffect } from "react";
import { StatePage } from "@/components/state-page";

/** The id the server logged the failure under (errors from Server Components carry one). */
function digestOf(error: unknown): string | null {
  if (error instanceof Error && "digest" in error && typeof error.digest === "string") return error.digest;
  return null;
}

/**
 * An unexpected failure on a console screen. Says so in words and offers "Try again"
 * (retry: re-fetches the screen from the server and re-renders it). Shows the error's
 * digest so support can find the logged failure — never the message or the stack,
 * which may hold internals.
 */
export default function ConsoleError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = digestOf(error);
  return (
    <StatePage
      code="Error"
      title="This screen could not be shown"
      actions={
        <button
          type="button"
          onClick={() => retry()}
          className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white"
        >
          Try again
        </button>
      }
    >
      <p>
        Something went wrong while loading it. Nothing you did was lost: every change is either saved whole or
        not at all. Trying again usually helps; if it keeps happening, tell support.
      </p>
      {digest && (
        <p className="text-sm">
          Reference for support:{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono select-all">{digest}</code>
        </p>
      )}
    </StatePage>
  );
}
