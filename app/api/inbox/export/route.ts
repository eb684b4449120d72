import { routeRoles } from "@/lib/auth/policy";
import { appendAudit } from "@/lib/audit/append";
import { db } from "@/lib/db";
import { csvDownload, type CsvColumn } from "@/lib/http/csv";
import { withRole } from "@/lib/http/route";
import { filtersToQuery, inboxAll, parseInboxFilters, type InboxRow } from "@/lib/inbox/query";
import { queryProblemResponse } from "@/lib/validation/query";

export const dynamic = "force-dynamic";

const COLUMNS: CsvColumn<InboxRow>[] = [
  ["tenant", (r) => r.tenantId],
  ["intent_key", (r) => r.intentKey],
  ["status", (r) => r.status],
  ["provider", (r) => r.provider.id],
  ["operation", (r) => r.operation],
  ["amount_minor", (r) => r.amountMinor?.toString() ?? ""],
  ["currency", (r) => r.currency ?? ""],
  ["recipient", (r) => r.recipient ?? ""],
  ["attempts", (r) => r.attemptCount],
  ["needs_operator", (r) => r.needsOperator],
  ["claimed_by", (r) => r.claimedBy?.name ?? ""],
  ["workflow_id", (r) => r.workflowId],
  ["customer_ref", (r) => r.customerRef ?? ""],
  ["created_at", (r) => r.createdAt.toISOString()],
  ["last_attempt_at", (r) => r.lastAttemptAt?.toISOString() ?? ""],
  // Set only on rows the reconciler works on (exported with auto=show).
  ["reconciler_next_try", (r) => r.reconciler?.nextAt.toISOString() ?? ""],
];

/**
 * The inbox under the current filter as CSV, streamed page by page. The whole filter is
 * checked before anything is sent; the export is audited once its first rows are read.
 */
export const GET = withRole(routeRoles("GET /api/inbox/export"), async (request, user) => {
  const { values: filters, problems } = parseInboxFilters(new URL(request.url).searchParams);
  if (problems.length > 0) return queryProblemResponse(problems);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return csvDownload(inboxAll(db, { ...filters, cursor: undefined }, user.id), COLUMNS, {
    filename: `reckon-inbox-${stamp}.csv`,
    started: () =>
      db.$transaction((tx) =>
        appendAudit(tx, {
          actor: { id: user.id, email: user.email, roles: user.roles },
          action: "inbox.exported",
          targetType: "inbox",
          details: { filter: filtersToQuery(filters), format: "csv" },
        }),
      ),
  });
});
