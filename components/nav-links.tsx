"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/** The main navigation; a screen may carry a live badge (the approvals count), rendered by its route. */
export function NavLinks({
  screens,
  badges = {},
}: {
  screens: { href: string; label: string }[];
  badges?: Partial<Record<string, ReactNode>>;
}) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-wrap gap-1">
      {screens.map((s) => {
        const active = s.href === "/" ? pathname === "/" : pathname.startsWith(s.href);
        const badge = badges[s.href];
        // The badge sits beside the link (its name stays the screen's) and describes it.
        const badgeId = `nav-badge${s.href.replace(/\W+/g, "-")}`;
        return (
          <span key={s.href} className="flex items-center">
            <Link
              href={s.href}
              aria-current={active ? "page" : undefined}
              aria-describedby={badge ? badgeId : undefined}
              className={`rounded px-3 py-1.5 text-sm ${active ? "bg-slate-700 text-white" : "text-slate-300 hover:bg-slate-800"}`}
            >
              {s.label}
            </Link>
            {badge && <span id={badgeId}>{badge}</span>}
          </span>
        );
      })}
    </nav>
  );
}
