"use client";

import "./globals.css";
import { StatePage } from "@/components/state-page";

/**
 * A failure in the root layout itself. It replaces the whole document, so it brings its
 * own <html>, <body>, styles and title. Only the digest is shown, never the message or stack.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest =
    error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <title>Something went wrong · Reckon</title>
        <main className="px-4 py-6">
          <p className="mx-auto max-w-xl font-semibold">Reckon</p>
          <StatePage
            code="Error"
            title="Reckon could not be shown"
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
              Something went wrong on our side. Trying again usually helps; if it keeps happening, tell
              support.
            </p>
            {digest && (
              <p className="text-sm">
                Reference for support:{" "}
                <code className="rounded bg-slate-100 px-1 py-0.5 font-mono">{digest}</code>
              </p>
            )}
          </StatePage>
        </main>
      </body>
    </html>
  );
}
