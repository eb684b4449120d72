// Runs once when a console server starts: the audit chain's checkpoint writer. Node.js
// only (NEXT_RUNTIME is how Next.js says which runtime this is — read here, before any
// Node-only module may be imported, hence not through lib/env.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ startCheckpointWriter }, { db }] = await Promise.all([
    import("@/lib/audit/checkpoint-writer"),
    import("@/lib/db"),
  ]);
  startCheckpointWriter(db);
}
