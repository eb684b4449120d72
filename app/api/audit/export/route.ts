import { routeRoles } from "@/lib/auth/policy";
import { appendAudit } from "@/lib/audit/append";
import { auditAll, auditFiltersQuery, parseAuditFilters } from "@/lib/audit/query";
import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { csvCell } from "@/lib/http/csv";
import { withRole } from "@/lib/http/route";
import { streamRows } from "@/lib/http/stream";
import { queryProblemResponse } from "@/lib/validation/query";
import type { AuditEvent } from "@/prisma/generated/client";

export const dynamic = "force-dynamic";

const FIELDS = [
  "seq",
  "occurredAt",
  "actorEmail",
  "actorRoles",
  "action",
  "tenantId",
  "targetType",
  "targetId",
  "reason",
  "evidenceRef",
  "beforeStatus",
  "afterStatus",
  "requestId",
  "details",
  "prevHash",
  "hash",
] as const;

function plain(e: AuditEvent): Record<string, unknown> {
  return Object.fromEntries(
    FIELDS.map((f) => [
      f,
      f === "seq" ? String(e.seq) : f === "occurredAt" ? e.occurredAt.toISOString() : e[f],
    ]),
  );
}

/**
 * The filtered log as CSV or JSON Lines, with a signed checkpoint of the whole
 * chain taken at export time (last JSON line; a response header for CSV).
 */
export const GET = withRole(routeRoles("GET /api/audit/export"), async (request, user) => {
  const url = new URL(request.url);
  const format = url.searchParams.get("format") === "jsonl" ? "jsonl" : "csv";
  const { values: filters, problems } = parseAuditFilters(url.searchParams);
  if (problems.length > 0) return queryProblemResponse(problems);
  const report = await verifyAuditChain(db);
  const checkpoint = report.ok ? makeCheckpoint(report, getEnv().checkpointKey) : null;
  const stream = await streamRows(auditAll(db, filters), {
    head: format === "csv" ? FIELDS.join(",") + "\n" : undefined,
    line: (row) => {
      const p = plain(row);
      return format === "csv" ? FIELDS.map((f) => csvCell(p[f])).join(",") + "\n" : JSON.stringify(p) + "\n";
    },
    tail: () =>
      format === "jsonl"
        ? JSON.stringify({ checkpoint, chainOk: report.ok, firstBreak: report.firstBreak }) + "\n"
        : "",
    started: () =>
      db.$transaction((tx) =>
        appendAudit(tx, {
          actor: { id: user.id, email: user.email, roles: user.roles },
          action: "audit.exported",
          targetType: "audit_log",
          details: {
            filter: auditFiltersQuery(filters),
            format,
            chainOk: report.ok,
            checkpointHead: checkpoint?.headSeq ?? null,
          },
        }),
      ),
  });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(stream, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
      "content-disposition": `attachment; filename="reckon-audit-${stamp}.${format}"`,
      "x-reckon-checkpoint": checkpoint ? JSON.stringify(checkpoint) : "chain broken",
    },
  });
});
