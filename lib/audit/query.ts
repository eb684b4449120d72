import { z } from "zod";
import type { AuditEvent, Prisma, PrismaClient } from "@/lib/generated/prisma/client";

export const auditFilters = z.object({
  actor: z.string().trim().max(254).optional().catch(undefined),
  action: z.string().trim().max(100).optional().catch(undefined),
  tenant: z.string().trim().max(64).optional().catch(undefined),
  intent: z.string().trim().max(255).optional().catch(undefined),
  from: z.string().date().optional().catch(undefined),
  to: z.string().date().optional().catch(undefined),
  q: z.string().trim().max(200).optional().catch(undefined),
  before: z.string().regex(/^\d+$/).optional().catch(undefined),
});
export type AuditFilters = z.infer<typeof auditFilters>;

export function parseAuditFilters(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): AuditFilters {
  const flat =
    params instanceof URLSearchParams
      ? Object.fromEntries(params)
      : Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  return auditFilters.parse(
    Object.fromEntries(Object.entries(flat).filter(([, v]) => v !== undefined && v !== "")),
  );
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
