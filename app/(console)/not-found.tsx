import type { Metadata } from "next";
import { previousPage } from "@/components/previous-page";
import { StatePage } from "@/components/state-page";
import { hasAnyRole } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/session";
import { screenRoles } from "@/lib/nav";

export const metadata: Metadata = { title: "Not found" };

/** A console page's notFound() (a missing intent, user or resolution), inside the console's header. */
export default async function ConsoleNotFound() {
  const user = await currentUser();
  const canSearch = !!user && hasAnyRole(user.roles, screenRoles("/inbox"));
  return (
    <StatePage
      code="404 · Not found"
      title="There is nothing here"
      search={canSearch}
      back={await previousPage()}
    >
      <p>
        The intent, resolution or user this address names does not exist — it may have been mistyped, or
        belong to another tenant.
      </p>
      {canSearch && <p>Search the inbox by the intent&apos;s key or a reference you have instead.</p>}
    </StatePage>
  );
}
