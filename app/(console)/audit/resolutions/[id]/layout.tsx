import { notFound } from "next/navigation";
import { z } from "zod";
import { requirePageRole } from "@/lib/auth/session";
import { screenRoles } from "@/lib/nav";

type Props = { children: React.ReactNode; params: Promise<{ id: string }> };

/**
 * The story's checks that need no data, run above its loading state so they answer
 * before anything streams: a refusal stays a redirect and a malformed id a real 404.
 */
export default async function ResolutionStoryLayout({ children, params }: Props) {
  const { id } = await params;
  await requirePageRole(screenRoles("/audit/resolutions/[id]"), `/audit/resolutions/${id}`);
  if (!z.uuid().safeParse(id).success) notFound();
  return children;
}
