import type { Metadata } from "next";
import Link from "next/link";
import { ActorName } from "@/components/actor-name";
import { Time } from "@/components/time";
import { requirePageRole } from "@/lib/auth/session";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { screenRoles } from "@/lib/nav";
import { CreateUserForm } from "./create-user-form";
import { loadUsers } from "./load-users";
import { RevokeSessionsForm } from "./revoke-sessions-form";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  await requirePageRole(screenRoles("/admin/users"), "/admin/users");
  const users = await loadUsers(db);
  const sso = getEnv().oidc;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Users</h1>
        <p className="text-sm text-slate-600">
          Who can sign in, with which roles, and whose account is locked by failed sign-ins. Open a user to
          change their roles, disable or enable them, or lift a lock. Every change is audited with before and
          after.
        </p>
      </div>
      <section aria-labelledby="add-user" className="rounded border border-slate-200 bg-white p-4">
        <h2 id="add-user" className="mb-2 text-lg font-semibold">
          Add a user
        </h2>
        <CreateUserForm ssoName={sso?.name ?? null} />
      </section>
      <div className="sm:overflow-x-auto">
        <table className="responsive-table w-full rounded border border-slate-200 bg-white text-sm sm:min-w-[52rem]">
          <caption className="sr-only">Users and their roles</caption>
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
              <th scope="col" className="p-2">
                Name
              </th>
              <th scope="col" className="p-2">
                Email
              </th>
              <th scope="col" className="p-2">
                Roles
              </th>
              <th scope="col" className="p-2">
                Last sign-in
              </th>
              <th scope="col" className="p-2">
                State
              </th>
              <th scope="col" className="p-2">
                Sessions
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} className="border-b border-slate-100 align-top">
                <th scope="row" className="p-2 text-left font-medium">
                  <Link href={`/admin/users/${u.id}`} className="text-blue-800 underline">
                    <ActorName name={u.name} system={u.system} email={u.email} />
                  </Link>
                </th>
                <td data-label="Email" className="p-2 break-words">
                  {u.email}
                </td>
                <td data-label="Roles" className="p-2">
                  {u.roles.map((r) => ROLE_LABELS[r]).join(", ")}
                </td>
                <td data-label="Last sign-in" className="p-2">
                  {u.system ? "never signs in" : u.lastSignInAt ? <Time value={u.lastSignInAt} /> : "never"}
                </td>
                <td data-label="State" className="p-2">
                  {u.state}
                </td>
                <td data-label="Sessions" className="p-2">
                  {u.system ? "—" : <RevokeSessionsForm userId={u.id} name={u.name} live={u.liveSessions} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
