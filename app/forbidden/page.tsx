import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { previousPage } from "@/components/previous-page";
import { StatePage } from "@/components/state-page";
import { ROLE_LABELS, hasAnyRole } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/session";
import { screenRoles } from "@/lib/nav";

export const metadata: Metadata = { title: "Not allowed" };

type Props = { searchParams: Promise<{ from?: string | string[] }> };

/** Only a path of ours is echoed back (never a scheme or another host). */
function refusedPath(from: string | string[] | undefined): string | null {
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) return null;
  return from.slice(0, 200);
}

/** Where a page's role check sends a signed-in person whose roles do not include it. */
export default async function ForbiddenPage({ searchParams }: Props) {
  const user = await currentUser();
  if (!user) redirect("/login");
  const from = refusedPath((await searchParams).from);
  const canSearch = hasAnyRole(user.roles, screenRoles("/inbox"));
  const roles = user.roles.map((r) => ROLE_LABELS[r]).join(", ") || "none";
  return (
    <main className="px-4 py-6">
      <p className="mx-auto max-w-xl font-semibold">Reckon</p>
      <StatePage
        code="403 · Forbidden"
        title="Not allowed"
        search={canSearch}
        back={await previousPage(from ?? undefined)}
      >
        <p>
          {from ? (
            <>
              <code className="rounded bg-slate-100 px-1 font-mono text-sm break-all">{from}</code> is for
              other roles.
            </>
          ) : (
            "That screen is for other roles."
          )}{" "}
          You are signed in as {user.email} with the roles: {roles}. Reckon keeps duties apart on purpose
          (admins do not resolve or approve, for one); ask an admin if your work needs this screen.
        </p>
      </StatePage>
    </main>
  );
}
