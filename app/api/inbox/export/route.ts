import { appendAudit } from "@/lib/audit/append";
import { db } from "@/lib/db";
import { csvCell } from "@/lib/http/csv";
import { withRole } from "@/lib/http/route";
import { filtersToQuery, inboxAll, parseInboxFilters, type InboxRow } from "@/lib/inbox/query";
import { screenRoles } from "@/lib/nav";

export const dynamic = "force-dynamic";

const COLUMNS: [string, (r: InboxRow) => unknown][] = [
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
];

/** The inbox under the current filter as CSV, streamed page by page; the export is audited. */
export const GET = withRole(screenRoles("/inbox"), async (request, user) => {
  const filters = parseInboxFilters(new URL(request.url).searchParams);
  await db.$transaction((tx) =>
    appendAudit(tx, {
      actor: { id: user.id, email: user.email, roles: user.roles },
      action: "inbox.exported",
      targetType: "inbox",
      details: { filter: filtersToQuery(filters), format: "csv" },
    }),
  );
  const encoder = new TextEncoder();
  const rows = inboxAll(db, { ...filters, cursor: undefined }, user.id);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(COLUMNS.map(([name]) => name).join(",") + "\n"));
      for await (const row of rows)
        controller.enqueue(encoder.encode(COLUMNS.map(([, get]) => csvCell(get(row))).join(",") + "\n"));
      controller.close();
    },
  });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="reckon-inbox-${stamp}.csv"`,
    },
  });
});
