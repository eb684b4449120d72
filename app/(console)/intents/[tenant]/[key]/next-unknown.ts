import "server-only";
import { db } from "@/lib/db";
import { intentPath } from "@/lib/format";
import { inboxPage, parseInboxFilters } from "@/lib/inbox/query";

/** The intent after this one in the inbox's default view and order (oldest unknown first), for this user. */
export async function nextUnknownPath(userId: string, currentId: string, now: Date): Promise<string | null> {
  const { values } = parseInboxFilters({});
  // Two rows are enough: this intent may be the first.
  const page = await inboxPage(db, values, userId, now, 2, { countHidden: false });
  const next = page.rows.find((r) => r.id !== currentId);
  return next ? intentPath(next) : null;
}
