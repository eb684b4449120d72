import { ROLE_LABELS, type Role } from "@/lib/auth/roles";
import { screensFor } from "@/lib/nav";
import { NavLinks } from "./nav-links";
import type { ReactNode } from "react";

/** The console's header; the sign-out control comes from the route (it is an action of the app). */
export type HeaderUser = { name: string; email: string; roles: Role[] };

export function AppHeader({
  user,
  signOut,
  badges,
}: {
  user: HeaderUser;
  signOut: ReactNode;
  /** Live badges beside screens' links, by href (the route renders them). */
  badges?: Partial<Record<string, ReactNode>>;
}) {
  return (
    <header className="bg-slate-900 text-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-4 px-4 py-2">
        <span className="text-lg font-semibold tracking-tight">Reckon</span>
        <NavLinks
          screens={screensFor(user.roles).map(({ href, label }) => ({ href, label }))}
          badges={badges}
        />
        <div className="ml-auto flex items-center gap-3 text-sm">
          <span aria-label="Signed in as">
            <span className="font-medium">{user.name}</span>{" "}
            <span className="text-slate-400">{user.email}</span>
          </span>
          <ul aria-label="Your roles" className="flex gap-1">
            {user.roles.map((r) => (
              <li key={r} className="rounded bg-slate-700 px-1.5 py-0.5 text-xs">
                {ROLE_LABELS[r]}
              </li>
            ))}
          </ul>
          {signOut}
        </div>
      </div>
    </header>
  );
}
