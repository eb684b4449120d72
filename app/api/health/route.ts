import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

// Public readiness probe: answers only once the database answers.
export async function GET() {
  try {
    await db.$queryRaw`SELECT 1`;
    return Response.json({ ok: true });
  } catch (error) {
    console.error("health check failed", error);
    return Response.json({ ok: false }, { status: 503 });
  }
}
