import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { ActorName } from "@/components/actor-name";
import { requirePageRole } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { formatUtc } from "@/lib/format";
import { screenRoles } from "@/lib/nav";
import { RevokeSessionsForm } from "../revoke-sessions-form";
import { loadUser } from "../load-users";
import { UnlockForm } from "./unlock-form";
import { UserAccessForm } from "./user-access-form";
import { UserRolesForm } from "./user-roles-form";

export const metadata: Metadata = { title: "User" };

type Props = { params: Promise<{ id: string }> };

/** How this user signs in, in words; `sso`: the identity provider's name when single sign-on is configured. */
function signInText(how: "password" | "sso" | "never", sso: string | null) {
  if (how === "never") return "Never: a system account acting through the same services as people";
  if (how === "sso") return `Single sign-on only${sso ? ` (${sso})` : " (not configured here)"}, no password`;
  return sso ? `Password, or single sign-on (${sso})` : "Password";
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded border border-slate-200 bg-white p-4">
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One user: what they hold, and the changes an admin may make to them. */
export default async function UserPage({ params }: Props) {
  const { id } = await params;
  const me = await requirePageRole(screenRoles("/admin/users/[id]"), `/admin/users/${id}`);
  if (!z.uuid().safeParse(id).success) notFound();
  const user = await loadUser(db, id);
  if (!user) notFound();
  const self = user.id === me.id;
  return (
    <div className="max-w-3xl space-y-4">
      <Link href="/admin/users" className="text-sm text-blue-800 underline">
        All users
      </Link>
      <div>
        <h1 className="text-2xl font-semibold">
          <ActorName name={user.name} system={user.system} email={user.email} />
        </h1>
        <p className="text-sm break-all text-slate-600">{user.email}</p>
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 rounded border border-slate-200 bg-white p-4 text-sm">
        <dt className="text-slate-600">Roles</dt>
        <dd>{user.roles.map((r) => ROLE_LABELS[r]).join(", ") || "none"}</dd>
        <dt className="text-slate-600">State</dt>
        <dd>{user.state}</dd>
        <dt className="text-slate-600">Signs in with</dt>
        <dd>{signInText(user.signsInWith, getEnv().oidc?.name ?? null)}</dd>
        <dt className="text-slate-600">Last sign-in</dt>
        <dd>{user.lastSignInAt ? formatUtc(user.lastSignInAt, "minute") : "never"}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>{formatUtc(user.createdAt, "minute")}</dd>
      </dl>
      {user.system ? (
        <p className="text-sm text-slate-700">
          A system account: its roles are fixed and it never signs in. The only change an admin makes to it is
          disabling or enabling it.
        </p>
      ) : (
        <Section id="roles" title="Roles">
          <UserRolesForm userId={user.id} name={user.name} roles={user.roles} self={self} />
        </Section>
      )}
      <Section id="access" title={user.system ? "On or off" : "Access"}>
        <UserAccessForm
          userId={user.id}
          name={user.name}
          disabled={user.disabled}
          system={user.system}
          self={self}
        />
      </Section>
      {!user.system && (
        <>
          <Section id="lock" title="Failed sign-ins">
            <UnlockForm
              userId={user.id}
              name={user.name}
              failedSignIns={user.failedSignIns}
              lockedUntil={user.locked && user.lockedUntil ? formatUtc(user.lockedUntil, "minute") : null}
            />
          </Section>
          <Section id="sessions" title="Sessions">
            <RevokeSessionsForm userId={user.id} name={user.name} live={user.liveSessions} />
          </Section>
        </>
      )}
    </div>
  );
}
