import type { Duty } from "./authorize";
import type { Role } from "./roles";

/**
 * Who may reach what — every page, route handler and server action of the console,
 * declared in one place. Pages and routes take their roles from here; actions name the
 * duty they are built for (lib/actions/client.ts), whose roles lib/auth/authorize.ts
 * declares. An e2e test (e2e/policy.spec.ts) lists every page, route and action of the
 * build and calls each as anonymous and as each role: one missing here fails it, and so
 * does one whose guard answers otherwise.
 */
export type Access =
  | { roles: readonly Role[] }
  | { duty: Duty }
  /** Anyone, signed in or not. */
  | { public: true }
  /** Anyone signed in, whatever their roles. */
  | { signedIn: true }
  /** A signed-in person, or a scraper with the metrics token. */
  | { sessionOrMetricsToken: true };

const EVERYONE: readonly Role[] = ["operator", "approver", "auditor", "admin"];
const READERS: readonly Role[] = ["operator", "approver", "auditor"];

/** Pages, by their path in the app (dynamic segments in brackets). */
export const PAGE_POLICY = {
  "/": { roles: EVERYONE },
  "/inbox": { roles: READERS },
  "/intents/[tenant]/[key]": { roles: READERS },
  "/approvals": { roles: ["approver"] },
  "/audit": { roles: ["auditor"] },
  "/audit/resolutions/[id]": { roles: READERS },
  "/metrics": { roles: EVERYONE },
  "/providers": { roles: EVERYONE },
  "/admin/users": { roles: ["admin"] },
  "/admin/users/[id]": { roles: ["admin"] },
  "/settings/thresholds": { roles: ["admin"] },
  "/settings/reconciler": { roles: ["admin"] },
  "/forbidden": { signedIn: true },
  "/login": { public: true },
  "/_not-found": { public: true },
  "/_global-error": { public: true },
} as const satisfies Record<string, Access>;

/** Route handlers, by "METHOD /path". */
export const ROUTE_POLICY = {
  "GET /api/health": { public: true },
  "GET /api/auth/[...nextauth]": { public: true },
  "POST /api/auth/[...nextauth]": { public: true },
  "GET /api/metrics": { sessionOrMetricsToken: true },
  "GET /api/overview": { roles: EVERYONE },
  "GET /api/inbox": { roles: READERS },
  "GET /api/inbox/export": { roles: READERS },
  "POST /api/intents/[id]/lookups": { duty: "look_up" },
  "GET /api/approvals/count": { roles: ["approver"] },
  "GET /api/audit/export": { roles: ["auditor"] },
  "GET /api/audit/checkpoint": { roles: ["auditor"] },
} as const satisfies Record<string, Access>;

/** Server actions, by exported name. */
export const ACTION_POLICY = {
  signInAction: { public: true },
  signOutAction: { signedIn: true },
  claimAction: { duty: "claim" },
  releaseAction: { duty: "claim" },
  lookupAction: { duty: "look_up" },
  proposeAction: { duty: "resolve" },
  sendCompensationAction: { duty: "resolve" },
  bulkAcceptAction: { duty: "resolve" },
  bulkMarkRejectedAction: { duty: "resolve" },
  decideAction: { duty: "decide" },
  saveThresholdAction: { duty: "administer" },
  saveReconcilePolicyAction: { duty: "administer" },
  revokeSessionsAction: { duty: "administer" },
  createUserAction: { duty: "administer" },
  setUserRolesAction: { duty: "administer" },
  setUserAccessAction: { duty: "administer" },
  unlockUserAction: { duty: "administer" },
  saveProviderProfileAction: { duty: "administer" },
  verifyChainAction: { duty: "verify_audit" },
} as const satisfies Record<string, Access>;

export type PagePath = keyof typeof PAGE_POLICY;
export type RouteKey = keyof typeof ROUTE_POLICY;

/** Whether someone holding these roles (null: not signed in) may reach what this access guards. */
export function allows(
  access: Access,
  roles: readonly Role[] | null,
  mayPerform: (r: readonly Role[], d: Duty) => boolean,
) {
  if ("public" in access) return true;
  if (roles === null) return false;
  if ("signedIn" in access || "sessionOrMetricsToken" in access) return true;
  if ("roles" in access) return access.roles.some((r) => roles.includes(r));
  return mayPerform(roles, access.duty);
}

/** The roles a page admits (pages restricted by role only). */
export function pageRoles(path: PagePath): readonly Role[] {
  const access: Access = PAGE_POLICY[path];
  if (!("roles" in access)) throw new Error(`${path} is not restricted by role`);
  return access.roles;
}

/** The roles a route admits (routes restricted by role only). */
export function routeRoles(key: RouteKey): readonly Role[] {
  const access: Access = ROUTE_POLICY[key];
  if (!("roles" in access)) throw new Error(`${key} is not restricted by role`);
  return access.roles;
}
