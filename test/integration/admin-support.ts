import { expect } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { AuthError } from "@/lib/auth/errors";
import { verifyAuditChain } from "@/lib/audit/verify";
import { ResolutionError } from "@/lib/resolution/errors";
import { seedReferenceData } from "@/lib/seed/demo";
import { freshPostgres, type TestDatabase } from "./support";

/** A fresh PostgreSQL database with the demo's reference data, its admin, a second admin and an operator. */
export async function adminWorld() {
  const database = await freshPostgres();
  const users = await seedReferenceData(database.prisma);
  const byEmail = (e: string) => users.find((u) => u.email === e)!;
  return {
    database,
    admin: { ...byEmail("admin@demo.test"), requestId: "req-admin" } as Actor,
    admin2: await extraAdmin(database, "Second Admin"),
    operator: byEmail("operator@demo.test") as Actor,
    /** Checks the audit chain is whole, then drops the database. */
    async close() {
      expect((await verifyAuditChain(database.prisma)).firstBreak).toBeNull();
      await database.dispose();
    },
  };
}

/** Settles every task; anything but a typed refusal fails the test. */
export async function settle<T>(tasks: (() => Promise<T>)[]) {
  const settled = await Promise.allSettled(tasks.map((t) => t()));
  for (const s of settled)
    if (s.status === "rejected" && !(s.reason instanceof ResolutionError || s.reason instanceof AuthError))
      throw s.reason;
  return settled;
}

/** Expects a typed refusal with this code whose message matches. */
export async function refused(promise: Promise<unknown>, code: string, message: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "refused").toBeInstanceOf(Error);
  expect((error as ResolutionError).code).toBe(code);
  expect((error as Error).message).toMatch(message);
}

/** An admin of its own, created straight in the database (the seed has one). */
export async function extraAdmin(database: TestDatabase, name: string): Promise<Actor> {
  const user = await database.prisma.user.create({
    data: { email: `${name.toLowerCase().replace(/\W+/g, ".")}@test.example`, name, roles: ["admin"] },
  });
  return { id: user.id, email: user.email, roles: user.roles };
}

/** A person with these roles (and a password hash nobody knows). */
export async function person(database: TestDatabase, email: string, roles: Actor["roles"]) {
  return database.prisma.user.create({
    data: { email, name: email.split("@")[0]!, roles, passwordHash: "scrypt$1$1$1$x$y" },
  });
}

/** Every audit event on one target, oldest first. */
export function eventsOn(database: TestDatabase, targetId: string, action?: string) {
  return database.prisma.auditEvent.findMany({
    where: { targetId, ...(action ? { action } : {}) },
    orderBy: { seq: "asc" },
  });
}

/** No password, no hash, nothing that looks like either, anywhere in what the audit log keeps. */
export function expectNoSecrets(events: { details: unknown; reason: string | null }[], secrets: string[]) {
  const text = JSON.stringify(events.map((e) => [e.details, e.reason]));
  expect(text).not.toMatch(/scrypt|password_?hash|passwordHash/i);
  for (const s of secrets) expect(text).not.toContain(s);
}
