"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export function NavLinks({ screens }: { screens: { href: string; label: string }[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-wrap gap-1">
      {screens.map((s) => {
        const active = s.href === "/" ? pathname === "/" : pathname.startsWith(s.href);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={active ? "page" : undefined}
            className={`rounded px-3 py-1.5 text-sm ${active ? "bg-slate-700 text-white" : "text-slate-300 hover:bg-slate-800"}`}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}
