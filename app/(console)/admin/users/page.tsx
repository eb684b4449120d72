import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { isLocked } from "@/lib/auth/lockout";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { formatUtc } from "@/lib/format";
import { screenRoles } from "@/lib/nav";
import { RevokeSessionsForm } from "./revoke-sessions-form";

export const metadata: Metadata = { title: "Users" };

async function loadUsers() {
  const users = await db.user.findMany({
    orderBy: { email: "asc" },
    select: {
      id: true,
      email: true,
      name: true,
      roles: true,
      disabled: true,
      lastSignInAt: true,
      lockedUntil: true,
      failedSignIns: true,
    },
  });
  const now = new Date();
  const live = await db.session.groupBy({
    by: ["userId"],
    where: { revokedAt: null, expiresAt: { gt: now } },
    _count: true,
  });
  const liveOf = new Map(live.map((l) => [l.userId, l._count]));
  return users.map((u) => ({
    ...u,
    liveSessions: liveOf.get(u.id) ?? 0,
    state: u.disabled
      ? "Disabled"
      : isLocked(u.lockedUntil, now)
        ? `Locked until ${u.lockedUntil!.toISOString().slice(11, 16)} UTC`
        : u.failedSignIns > 0
          ? `${u.failedSignIns} failed sign-in(s)`
          : "Active",
  }));
}

export default async function UsersPage() {
  await requirePageRole(screenRoles("/admin/users"), "/admin/users");
  const users = await loadUsers();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Users</h1>
        <p className="text-sm text-slate-600">
          Who can sign in, with which roles, and whose account is locked by failed sign-ins.
        </p>
      </div>
      <table className="w-full rounded border border-slate-200 bg-white text-sm">
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
            <tr key={u.id} className="border-b border-slate-100">
              <th scope="row" className="p-2 text-left font-medium">
                {u.name}
              </th>
              <td className="p-2">{u.email}</td>
              <td className="p-2">{u.roles.map((r) => ROLE_LABELS[r]).join(", ")}</td>
              <td className="p-2">{u.lastSignInAt ? formatUtc(u.lastSignInAt, "minute") : "never"}</td>
              <td className="p-2">{u.state}</td>
              <td className="p-2">
                <RevokeSessionsForm userId={u.id} name={u.name} live={u.liveSessions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
