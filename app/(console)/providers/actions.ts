"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { updateProviderProfile } from "@/lib/admin/providers";
import { providerProfileInput } from "@/lib/admin/schemas";
import { db } from "@/lib/db";

export const saveProviderProfileAction = actionFor("administer")
  .metadata({ name: "save-provider-profile" })
  .inputSchema(providerProfileInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const { profile, changed } = await updateProviderProfile(db, ctx.actor, {
      ...parsedInput,
      baseUrl: parsedInput.baseUrl ?? null,
      keyRetentionSeconds: parsedInput.keyRetentionSeconds ?? null,
    });
    refresh();
    return { changed, updatedAt: profile.updatedAt };
  });
