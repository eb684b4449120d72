import type { Metadata } from "next";
import { previousPage } from "@/components/previous-page";
import { StatePage } from "@/components/state-page";
import { hasAnyRole } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/session";
import { screenRoles } from "@/lib/nav";

export const metadata: Metadata = { title: "Page not found" };

/** Any address the app has no route for (the console's own misses render inside its header). */
export default async function NotFound() {
  const user = await currentUser();
  const canSearch = !!user && hasAnyRole(user.roles, screenRoles("/inbox"));
  return (
    <main className="px-4 py-6">
      <p className="mx-auto max-w-xl font-semibold">Reckon</p>
      <StatePage
        code="404 · Not found"
        title="This page does not exist"
        search={canSearch}
        back={await previousPage()}
      >
        <p>
          No screen of Reckon lives at this address. It may have been mistyped, or a link may be out of date.
        </p>
        {canSearch && <p>Looking for an intent? Search the inbox by its key or a reference.</p>}
      </StatePage>
    </main>
  );
}
