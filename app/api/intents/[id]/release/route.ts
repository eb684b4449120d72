import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { releaseIntent } from "@/lib/resolution/claims";
import { intentIdFrom } from "@/lib/resolution/params";
import { releaseInput } from "@/lib/resolution/schemas";

export const POST = mutation<typeof releaseInput, { id: string }>(
  ["operator"],
  releaseInput,
  async ({ input, actor, params }) =>
    json({ intent: await releaseIntent(db, actor, { intentId: intentIdFrom(params), ...input }) }),
);
