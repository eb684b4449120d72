import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { currentUser } from "@/lib/auth/session";
import { getEnv } from "@/lib/env";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ callbackUrl?: string; error?: string }> };

export default async function LoginPage({ searchParams }: Props) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  const env = getEnv();
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-semibold">Reckon</h1>
        <p className="mt-1 text-sm text-slate-600">Resolve unknown side effects with evidence.</p>
        {env.embedded && (
          <p className="mt-4 rounded bg-amber-50 p-2 text-xs text-amber-900">
            Demo on the embedded database: sign in as <code>operator@demo.test</code> with password{" "}
            <code>reckon-demo</code>.
          </p>
        )}
        <LoginForm
          callbackUrl={callbackUrl}
          sso={env.oidc ? { name: env.oidc.name } : null}
          initialError={
            params.error === "AccessDenied" ? "Your SSO account is not provisioned in Reckon." : null
          }
        />
      </div>
    </main>
  );
}
