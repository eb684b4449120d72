import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Not allowed" };

export default async function ForbiddenPage() {
  if (!(await currentUser())) redirect("/login");
  return (
    <main className="mx-auto max-w-lg p-10">
      <h1 className="text-2xl font-semibold">Not allowed</h1>
      <p className="mt-2 text-slate-600">
        Your roles do not include this screen. Ask an admin if you need it.
      </p>
      <Link href="/" className="mt-4 inline-block text-blue-700 underline">
        Back to the overview
      </Link>
    </main>
  );
}
