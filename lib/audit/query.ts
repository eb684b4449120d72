import { z } from "zod";
import type { AuditEvent, Prisma, PrismaClient } from "@/prisma/generated/client";
import { parseQuery } from "@/lib/validation/query";
import { oneLineText } from "@/lib/validation/text";

export const auditFilters = z.object({
  actor: oneLineText("Actor", 1, 254).optional(),
  action: oneLineText("Action", 1, 100).optional(),
  tenant: oneLineText("Tenant", 1, 64).optional(),
  intent: oneLineText("Intent", 1, 255).optional(),
  from: z.iso.date({ error: "From is a date (YYYY-MM-DD)." }).optional(),
  to: z.iso.date({ error: "To is a date (YYYY-MM-DD)." }).optional(),
  q: oneLineText("Reason text", 1, 200).optional(),
  before: z
    .string()
    .regex(/^\d{1,18}$/, "This page link is not valid; start again from the first page.")
    .optional(),
});
export type AuditFilters = z.infer<typeof auditFilters>;

/** The filters of a URL; a filter that does not parse is dropped and named in `problems`. */
export function parseAuditFilters(params: URLSearchParams | Record<string, string | string[] | undefined>) {
  return parseQuery(auditFilters, params);
}

export function auditFiltersQuery(f: AuditFilters, withCursor = false): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f))
    if (v !== undefined && (withCursor || k !== "before")) q.set(k, String(v));
  return q.toString();
}

async function where(db: PrismaClient, f: AuditFilters): Promise<Prisma.AuditEventWhereInput> {
  const and: Prisma.AuditEventWhereInput[] = [];
  if (f.actor) and.push({ actorEmail: f.actor.toLowerCase() });
  if (f.action) and.push({ action: { startsWith: f.action } });
  if (f.tenant) and.push({ tenantId: f.tenant });
  if (f.intent) {
    // An intent key (in any tenant) or an intent id.
    const ids = (
      await db.effectIntent.findMany({ where: { intentKey: f.intent }, select: { id: true } })
    ).map((i) => i.id);
    and.push({ targetType: "intent", targetId: { in: [...ids, f.intent] } });
  }
  if (f.from) and.push({ occurredAt: { gte: new Date(`${f.from}T00:00:00Z`) } });
  if (f.to) and.push({ occurredAt: { lt: new Date(new Date(`${f.to}T00:00:00Z`).getTime() + 86_400_000) } });
  if (f.q) and.push({ reason: { contains: f.q, mode: "insensitive" } });
  if (f.before) and.push({ seq: { lt: BigInt(f.before) } });
  return { AND: and };
}

export const AUDIT_PAGE_SIZE = 100;

/** Newest first, keyset on seq. */
export async function auditPage(
  db: PrismaClient,
  f: AuditFilters,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<{ rows: AuditEvent[]; nextBefore: string | null }> {
  const rows = await db.auditEvent.findMany({
    where: await where(db, f),
    orderBy: { seq: "desc" },
    take: pageSize + 1,
  });
  const more = rows.length > pageSize;
  const page = more ? rows.slice(0, pageSize) : rows;
  return { rows: page, nextBefore: more ? String(page.at(-1)!.seq) : null };
}

export async function* auditAll(db: PrismaClient, f: AuditFilters): AsyncGenerator<AuditEvent> {
  let before = f.before;
  for (;;) {
    const page = await auditPage(db, { ...f, before }, 1000);
    yield* page.rows;
    if (!page.nextBefore) return;
    before = page.nextBefore;
  }
}
