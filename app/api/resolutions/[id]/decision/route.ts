import { z } from "zod";
import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { decide } from "@/lib/resolution/approvals";
import { dispatchCompensation } from "@/lib/resolution/compensation";
import { ResolutionError } from "@/lib/resolution/errors";
import { reason } from "@/lib/resolution/schemas";

const decisionInput = z.object({ decision: z.enum(["approved", "denied"]), reason });

export const POST = mutation<typeof decisionInput, { id: string }>(
  ["approver"],
  decisionInput,
  async ({ input, actor, params }) => {
    const id = z.uuid().safeParse(params.id);
    if (!id.success) throw new ResolutionError("not_found", "No such resolution.");
    const result = await decide(db, actor, { resolutionId: id.data, ...input });
    const s = consoleProviderSettings();
    const compensation = result.compensationIntentId
      ? await dispatchCompensation(
          db,
          { sandboxUrl: s.defaultBaseUrl, stripeApiKey: s.stripeApiKey, timeoutMs: s.timeoutMs },
          actor,
          result.compensationIntentId,
        )
      : null;
    return json({ outcome: result.outcome, resolution: result.resolution, compensation });
  },
);
