import { z } from "zod";
import { rolesConflict } from "@/lib/auth/authorize";
import { normalizeEmail } from "@/lib/auth/email";
import { ROLES, type Role } from "@/lib/auth/roles";
import { reason } from "@/lib/resolution/schemas";
import { formInput } from "@/lib/validation/form";
import { oneLineText, recordId } from "@/lib/validation/text";
import { PROFILE_BOUNDS } from "./bounds";

// The input of the admin screens' actions (users, provider profiles): the forms read
// their field names and bounds from here, and the actions parse with these schemas.

const userId = recordId("user");

/** Roles in their usual order, each once; a single value (one checkbox, or a plain call) counts as a list of one. */
const roleList = z.preprocess(
  (v) => (typeof v === "string" ? [v] : v),
  z
    .array(z.enum(ROLES as [Role, ...Role[]], { error: "Unknown role." }), { error: "Choose the roles." })
    .max(ROLES.length * 2, "Too many roles.")
    .transform((roles) => ROLES.filter((r) => roles.includes(r))),
);

/** The roles to grant: at least one, and never a combination separation of duties forbids. */
const grantedRoles = roleList.superRefine((roles, ctx) => {
  if (roles.length === 0) ctx.addIssue({ code: "custom", message: "Choose at least one role." });
  const conflict = rolesConflict(roles);
  if (conflict) ctx.addIssue({ code: "custom", message: conflict });
});

export const SIGN_IN_METHODS = ["password", "sso"] as const;

export const createUserInput = formInput(
  z.object({
    email: oneLineText("Email", 3, 320)
      .transform(normalizeEmail)
      .pipe(z.email({ error: "Email: an address such as name@example.com." })),
    name: oneLineText("Name", 1, 120),
    roles: grantedRoles,
    signIn: z.enum(SIGN_IN_METHODS, { error: "Choose how they sign in." }).default("password"),
  }),
  { lists: ["roles"] },
);

export const userRolesInput = formInput(
  z.object({
    userId,
    roles: grantedRoles,
    /** The roles the form was showing: a change made meanwhile by someone else is refused, not overwritten. */
    expectedRoles: roleList.default([]),
    reason,
  }),
  { lists: ["roles", "expectedRoles"] },
);

export const userAccessInput = formInput(
  z.object({
    userId,
    change: z.enum(["disable", "enable"], { error: "Disable or enable." }),
    reason,
  }),
);

export const unlockUserInput = formInput(z.object({ userId }));

type Bounded = keyof typeof PROFILE_BOUNDS;

/** A whole number within a field's bounds, typed (a form's text) or given (a number). */
function bounded(field: Bounded) {
  const { label, min, max } = PROFILE_BOUNDS[field];
  const message = `${label}: a whole number from ${min.toLocaleString("en")} to ${max.toLocaleString("en")}.`;
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,9}$/, message)
          .transform(Number),
      ],
      { error: message },
    )
    .pipe(z.number().int(message).min(min, message).max(max, message));
}

/** Why a base URL is not one Reckon may call, or null: http(s) only, no credentials, query or fragment. */
export function baseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Base URL: a full address such as https://api.example.com.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Base URL: http or https only.";
  if (url.username || url.password)
    return "Base URL: no user name or password in it (credentials belong in the environment).";
  if (url.search || url.hash) return "Base URL: no query or fragment.";
  return null;
}

export const providerProfileInput = formInput(
  z.object({
    providerId: oneLineText("Provider", 1, 64),
    /** Empty: the default provider address of this deployment (SANDBOX_URL). */
    baseUrl: z.preprocess(
      (v) => (v === "" ? undefined : v),
      oneLineText("Base URL", 1, 2048)
        .superRefine((v, ctx) => {
          const problem = baseUrlProblem(v);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        })
        .optional(),
    ),
    responseWindowSeconds: bounded("responseWindowSeconds"),
    /** Empty for a provider without idempotency keys (it keeps none). */
    keyRetentionSeconds: z.preprocess(
      (v) => (v === "" ? undefined : v),
      bounded("keyRetentionSeconds").optional(),
    ),
    visibilityDelaySeconds: bounded("visibilityDelaySeconds"),
    rateLimitPerSecond: bounded("rateLimitPerSecond"),
    /** When the form's profile was last changed: a change made meanwhile is refused, not overwritten. */
    expectedUpdatedAt: z.iso
      .datetime({ offset: true, error: "Reload the page: the form is missing its version." })
      .transform((v) => new Date(v)),
    reason,
  }),
);
