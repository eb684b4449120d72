import { pageRoles, type PagePath } from "@/lib/auth/policy";
import type { Role } from "@/lib/auth/roles";

export type Screen = { href: PagePath; label: string; roles: readonly Role[] };

const screen = (href: PagePath, label: string): Screen => ({ href, label, roles: pageRoles(href) });

// Only screens that exist are listed; the roles are the page's own (lib/auth/policy.ts).
export const SCREENS: readonly Screen[] = [
  screen("/", "Overview"),
  screen("/inbox", "Inbox"),
  screen("/approvals", "Approvals"),
  screen("/audit", "Audit log"),
  screen("/metrics", "Metrics"),
  screen("/providers", "Providers"),
  screen("/admin/users", "Users"),
  screen("/settings/thresholds", "Thresholds"),
  screen("/settings/reconciler", "Reconciler"),
];

export function screensFor(roles: readonly Role[]): Screen[] {
  return SCREENS.filter((s) => s.roles.some((r) => roles.includes(r)));
}

/** Who may act on intents (claim, look up, resolve). Everyone else reads. */
export const OPERATOR_ROLES: readonly Role[] = ["operator"];

/** The roles a page admits (lib/auth/policy.ts). */
export function screenRoles(href: PagePath): readonly Role[] {
  return pageRoles(href);
}
