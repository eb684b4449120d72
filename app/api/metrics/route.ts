import { timingSafeEqual } from "node:crypto";
import { currentUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { ledgerMetrics, PROMETHEUS_CONTENT_TYPE, prometheusText } from "@/lib/metrics";

export const dynamic = "force-dynamic";

function tokenMatches(header: string | null, token: string | undefined): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Prometheus metrics. A scraper authenticates with `Authorization: Bearer $METRICS_TOKEN`;
 * a signed-in user of any role may read them too.
 */
export async function GET(request: Request) {
  if (!tokenMatches(request.headers.get("authorization"), getEnv().METRICS_TOKEN) && !(await currentUser())) {
    return new Response("unauthorized\n", {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="reckon-metrics"' },
    });
  }
  return new Response(await prometheusText(await ledgerMetrics(db)), {
    headers: { "content-type": PROMETHEUS_CONTENT_TYPE },
  });
}
