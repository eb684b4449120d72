import { routeRoles } from "@/lib/auth/policy";
import { appendAudit } from "@/lib/audit/append";
import { auditAll, auditFiltersQuery, parseAuditFilters } from "@/lib/audit/query";
import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { csvDownload, type CsvColumn } from "@/lib/http/csv";
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
  const started = () =>
    db
      .$transaction((tx) =>
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
      )
      .then(() => undefined);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const checkpointHeader = {
    "x-reckon-checkpoint": checkpoint ? JSON.stringify(checkpoint) : "chain broken",
  };
  if (format === "csv")
    return csvDownload(
      auditAll(db, filters),
      FIELDS.map((f) => [f, (e: AuditEvent) => plain(e)[f]] as CsvColumn<AuditEvent>),
      { filename: `reckon-audit-${stamp}.csv`, started, headers: checkpointHeader },
    );
  // JSON Lines: the signed checkpoint of the whole chain is the last line.
  const stream = await streamRows(auditAll(db, filters), {
    line: (row) => JSON.stringify(plain(row)) + "\n",
    tail: () => JSON.stringify({ checkpoint, chainOk: report.ok, firstBreak: report.firstBreak }) + "\n",
    started,
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson",
      "content-disposition": `attachment; filename="reckon-audit-${stamp}.jsonl"`,
      ...checkpointHeader,
    },
  });
});
