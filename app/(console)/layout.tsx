import { redirect } from "next/navigation";
import { AppHeader } from "@/components/app-header";
import { SignOutButton } from "./sign-out-button";
import { DemoBanner } from "@/components/demo-banner";
import { QueryProvider } from "@/components/query-provider";
import { currentUser } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/login");
  return (
    <QueryProvider>
      {getEnv().embedded && <DemoBanner />}
      <AppHeader user={user} signOut={<SignOutButton />} />
      <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
    </QueryProvider>
  );
}
