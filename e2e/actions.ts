import { toolEnv } from "@/tools/env";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

/**
 * Calls a server action the way a hand-made request would (not through its form): by
 * the action id the build assigned it, found by its exported name in the build's
 * manifest. For proving what a caller outside the UI gets: role refusals, bad input.
 */
type Manifest = { node: Record<string, { exportedName?: string; filename?: string }> };

let manifest: Manifest | undefined;

export function actionId(exportedName: string): string {
  manifest ??= JSON.parse(
    readFileSync(path.join(process.cwd(), ".next/server/server-reference-manifest.json"), "utf8"),
  ) as Manifest;
  const found = Object.entries(manifest.node).find(([, v]) => v.exportedName === exportedName);
  if (!found) throw new Error(`no server action ${exportedName} in the build`);
  return found[0];
}

export type ActionAnswer = {
  status: number;
  /** The action's result: { data } or { serverError } or { validationErrors }; null if the request failed. */
  result: {
    data?: unknown;
    serverError?: { code: string; message: string };
    validationErrors?: { formErrors: string[]; fieldErrors: Record<string, string[] | undefined> };
  } | null;
};

/**
 * POSTs the arguments (for a form's stateful action: `[previousState, input]`) as
 * React encodes a plain call, and reads the result row out of the Flight answer.
 */
export async function callAction(
  request: APIRequestContext,
  exportedName: string,
  args: unknown[],
  options: { page?: string; origin?: string | null; baseURL?: string } = {},
): Promise<ActionAnswer> {
  const baseURL = options.baseURL ?? `http://127.0.0.1:${toolEnv().E2E_PORT}`;
  const headers: Record<string, string> = {
    "next-action": actionId(exportedName),
    "content-type": "text/plain;charset=UTF-8",
    accept: "text/x-component",
  };
  const origin = options.origin === undefined ? baseURL : options.origin;
  if (origin) headers.origin = origin;
  const response = await request.post(`${baseURL}${options.page ?? "/inbox"}`, {
    headers,
    data: JSON.stringify(args),
  });
  const text = await response.text();
  const head = /^0:(\{.*\})$/m.exec(text);
  const ref = head ? ((JSON.parse(head[1]!) as { a?: string }).a ?? "").replace("$@", "") : null;
  const row = ref ? new RegExp(`^${ref}:(.*)$`, "m").exec(text) : null;
  const result = row && !row[1]!.startsWith("E") ? (JSON.parse(row[1]!) as ActionAnswer["result"]) : null;
  return { status: response.status(), result };
}
