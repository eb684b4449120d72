import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { dispatchCompensation } from "@/lib/resolution/compensation";
import { intentIdFrom } from "@/lib/resolution/params";
import { proposeResolution } from "@/lib/resolution/resolve";
import { resolutionInput } from "@/lib/resolution/schemas";

export const POST = mutation<typeof resolutionInput, { id: string }>(
  ["operator"],
  resolutionInput,
  async ({ input, actor, params }) => {
    const result = await proposeResolution(db, actor, { ...input, intentId: intentIdFrom(params) });
    // A compensation is sent after its transaction committed. A replayed submission
    // tries again, which is harmless: the protocol sends a prepared refund once.
    const compensation =
      result.applied && result.compensationIntentId
        ? await dispatchCompensation(db, toSandbox(), actor, result.compensationIntentId)
        : null;
    return json({
      resolution: result.resolution,
      intent: result.intent,
      applied: result.applied,
      replayed: result.replayed,
      compensation,
    });
  },
);

function toSandbox() {
  const s = consoleProviderSettings();
  return { sandboxUrl: s.defaultBaseUrl, stripeApiKey: s.stripeApiKey, timeoutMs: s.timeoutMs };
}
