import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { intentIdFrom } from "@/lib/resolution/params";
import { lookupInput } from "@/lib/resolution/schemas";

export const POST = mutation<typeof lookupInput, { id: string }>(
  ["operator"],
  lookupInput,
  async ({ input, actor, params }) => {
    const { lookup } = await lookupForOperator(db, consoleProviderSettings(), actor, {
      intentId: intentIdFrom(params),
      ...input,
    });
    return json({ lookup });
  },
);
