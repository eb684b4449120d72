// Runs once when a console server starts: the audit chain's checkpoint writer. Node.js
// only (NEXT_RUNTIME is how Next.js says which runtime this is — read here, before any
// Node-only module may be imported, hence not through lib/env.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ startCheckpointWriter }, { db }, { getEnv }] = await Promise.all([
    import("@/lib/audit/checkpoint-writer"),
    import("@/lib/db"),
    import("@/lib/env"),
  ]);
  startCheckpointWriter(db);
  // The demo's embedded database allows one process: there the console runs the reconciler.
  const env = getEnv();
  if (env.RECONCILER_IN_CONSOLE === "1") {
    const [{ startReconcilerLoop }, { consoleProviderSettings }] = await Promise.all([
      import("@/lib/reconcile/loop"),
      import("@/lib/providers/settings"),
    ]);
    startReconcilerLoop({
      db,
      settings: consoleProviderSettings(),
      intervalMs: env.RECONCILE_INTERVAL_MS,
      batch: env.RECONCILE_BATCH,
      leaseMs: env.RECONCILE_LEASE_MS,
      onPass: (counts) => console.log(`reconciler: ${JSON.stringify(counts)}`),
    });
  }
}
