import { db } from "@/lib/db";
import { toJson } from "@/lib/http/json";
import { jsonMutation } from "@/lib/http/route";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { lookupInput } from "@/lib/resolution/schemas";

/**
 * A lookup as JSON, for the inbox's bulk lookups: they run several at a time with a
 * progress bar, which server actions (dispatched one at a time) cannot. The intent
 * page uses the lookup server action instead.
 */
export const POST = jsonMutation(
  "look_up",
  lookupInput,
  async ({ input, actor }) => {
    const { lookup } = await lookupForOperator(db, consoleProviderSettings(), actor, input);
    return toJson({ lookup: { id: lookup.id, outcome: lookup.outcome, errorClass: lookup.errorClass } });
  },
  (params: { id: string }) => ({ intentId: params.id }),
);
