import { z } from "zod";
import { reason } from "@/lib/resolution/schemas";
import { formInput } from "@/lib/validation/form";
import { oneLineText } from "@/lib/validation/text";

// The reconcile policy form's fields and limits; its action parses with this schema.

export const RECONCILE_MODES = ["off", "dry_run", "on"] as const;

export type ReconcileModeId = (typeof RECONCILE_MODES)[number];

export const MODE_LABELS: Record<ReconcileModeId, string> = {
  off: "Off — the kill switch",
  dry_run: "Dry run — look up and record what it would do",
  on: "On",
};

export const MAX_REDISPATCHES = 10;

export const reconcilePolicyInput = formInput(
  z.object({
    tenantId: oneLineText("Tenant", 1, 64),
    providerId: oneLineText("Provider", 1, 64),
    mode: z.enum(RECONCILE_MODES, { error: "Choose a mode." }),
    // A checkbox posts its value when ticked and nothing when not.
    redispatch: z
      .union([z.boolean(), z.literal("true")], { error: "Tick the box or leave it empty." })
      .optional()
      .transform((v) => v === true || v === "true"),
    maxRedispatches: z.coerce
      .number({ error: `Redispatches: a whole number from 0 to ${MAX_REDISPATCHES}.` })
      .int(`Redispatches: a whole number from 0 to ${MAX_REDISPATCHES}.`)
      .min(0, `Redispatches: a whole number from 0 to ${MAX_REDISPATCHES}.`)
      .max(MAX_REDISPATCHES, `Redispatches: at most ${MAX_REDISPATCHES}.`),
    reason,
  }),
);
