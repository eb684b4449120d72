import { redirect } from "next/navigation";
import { AppHeader } from "@/components/app-header";
import { SignOutButton } from "./sign-out-button";
import { ApprovalsCount } from "./approvals/approvals-count";
import { DemoBanner } from "@/components/demo-banner";
import { QueryProvider } from "@/components/query-provider";
import { waitingSummary } from "@/lib/approvals/queue";
import { mayPerform } from "@/lib/auth/authorize";
import { currentUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/login");
  // Approvers see how many requests wait for them, first from the server, then live.
  const waiting = mayPerform(user.roles, "decide") ? await waitingSummary(db, user) : null;
  return (
    <QueryProvider>
      {getEnv().embedded && <DemoBanner />}
      <AppHeader
        user={user}
        signOut={<SignOutButton />}
        badges={waiting ? { "/approvals": <ApprovalsCount initial={waiting} /> } : undefined}
      />
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </QueryProvider>
  );
}
