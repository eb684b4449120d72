import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { claimIntent } from "@/lib/resolution/claims";
import { intentIdFrom } from "@/lib/resolution/params";
import { claimInput } from "@/lib/resolution/schemas";

export const POST = mutation<typeof claimInput, { id: string }>(
  ["operator"],
  claimInput,
  async ({ input, actor, params }) =>
    json({ intent: await claimIntent(db, actor, { intentId: intentIdFrom(params), ...input }) }),
);
