import { z } from "zod";
import { formInput } from "@/lib/validation/form";
import { oneLineText } from "@/lib/validation/text";

export const signInInput = formInput(
  z.object({
    email: oneLineText("Email", 3, 320),
    // Any characters at all (it is never stored, only hashed), within a bound.
    password: z
      .string({ error: "Password is required." })
      .min(1, "Password is required.")
      .max(1024, "Password is too long."),
    callbackUrl: z.string().max(2048).optional(),
  }),
);

export const revokeSessionsInput = formInput(
  z.object({
    userId: z.uuid({ error: "No such user." }),
    reason: z.string().trim().min(5, "Reason: at least 5 characters.").max(500),
  }),
);
