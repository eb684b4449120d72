import type { Role } from "@/lib/auth/roles";

export type Screen = { href: string; label: string; roles: readonly Role[] };

const EVERYONE: readonly Role[] = ["operator", "approver", "auditor", "admin"];

// Only screens that exist are listed; each page checks the same roles on the server.
export const SCREENS: readonly Screen[] = [
  { href: "/", label: "Overview", roles: EVERYONE },
  { href: "/inbox", label: "Inbox", roles: ["operator", "approver", "auditor"] },
  { href: "/approvals", label: "Approvals", roles: ["approver"] },
  { href: "/audit", label: "Audit log", roles: ["auditor"] },
  { href: "/metrics", label: "Metrics", roles: EVERYONE },
  { href: "/providers", label: "Providers", roles: EVERYONE },
  { href: "/admin/users", label: "Users", roles: ["admin"] },
  { href: "/settings/thresholds", label: "Thresholds", roles: ["admin"] },
];

export function screensFor(roles: readonly Role[]): Screen[] {
  return SCREENS.filter((s) => s.roles.some((r) => roles.includes(r)));
}

/** Who may act on intents (claim, look up, resolve). Everyone else reads. */
export const OPERATOR_ROLES: readonly Role[] = ["operator"];

export function screenRoles(href: string): readonly Role[] {
  const screen = SCREENS.find((s) => s.href === href);
  if (!screen) throw new Error(`No screen ${href}`);
  return screen.roles;
}
