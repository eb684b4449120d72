import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { spawnSandbox, type SandboxProcess as BaseSandbox } from "@/tools/sandbox/process";
import type { Effect, RecordedRequest } from "@/tools/sandbox/state";
import type { EffectJob } from "@/lib/effects/types";

const ROOT = path.resolve(import.meta.dirname, "../..");
// One process per worker (node with tsx's loader, not the tsx wrapper), so a
// SIGKILL ends the worker itself, as a lost machine would.
const NODE_ARGS = ["--import", "tsx"];

/** The sandbox provider as a separate process on a free port, with its control API. */
export type SandboxProcess = BaseSandbox & {
  effects(filter?: { intentKey?: string; idempotencyKey?: string }): Promise<Effect[]>;
  requests(): Promise<RecordedRequest[]>;
  fault(rule: {
    match: { idempotencyKey?: string; intentKey?: string; path?: string };
    fault: string;
    delayMs?: number;
    times?: number;
  }): Promise<void>;
  advanceClock(ms: number): Promise<void>;
  control(path: string, body?: unknown): Promise<unknown>;
};

export async function startSandbox(env: Record<string, string> = {}): Promise<SandboxProcess> {
  const base = await spawnSandbox({ env });
  const { url } = base;
  const control = async (p: string, body?: unknown) => {
    const response = await fetch(
      `${url}${p}`,
      body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
    );
    if (!response.ok) throw new Error(`sandbox ${p}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    ...base,
    control,
    effects: async (filter = {}) => {
      const q = new URLSearchParams(
        Object.entries(filter).filter(([, v]) => v !== undefined) as [string, string][],
      );
      return ((await control(`/_effects?${q}`)) as { effects: Effect[] }).effects;
    },
    requests: async () => ((await control("/_requests")) as { requests: RecordedRequest[] }).requests,
    fault: async (rule) => {
      await control("/_faults", rule);
    },
    advanceClock: async (ms) => {
      await control("/_clock", { advanceMs: ms });
    },
  };
}

export type WorkerRun = {
  code: number | null;
  signal: NodeJS.Signals | null;
  result: Record<string, unknown> | null;
  child: ChildProcess;
  done: Promise<void>;
};

/** Starts a worker process on one job; resolve `done` to wait for it to end. */
export function startWorker(job: EffectJob, env: Record<string, string>): WorkerRun {
  const child = spawn(process.execPath, [...NODE_ARGS, "scripts/worker.ts", JSON.stringify(job)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const run: WorkerRun = { code: null, signal: null, result: null, child, done: Promise.resolve() };
  const lines = createInterface({ input: child.stdout! });
  lines.on("line", (line) => {
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if ("outcome" in parsed) run.result = parsed;
    } catch {
      // not ours
    }
  });
  run.done = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      run.code = code;
      run.signal = signal;
      resolve();
    }),
  );
  return run;
}

export async function runWorker(job: EffectJob, env: Record<string, string>): Promise<WorkerRun> {
  const run = startWorker(job, env);
  await run.done;
  return run;
}

export type ReconcilerRun = {
  child: ChildProcess;
  /** Every JSON line it printed (passes; with --once, the last is the total). */
  lines: Record<string, unknown>[];
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** `npm run reconciler` as its own process (node with tsx's loader, so SIGKILL ends it). */
export function startReconciler(env: Record<string, string>, args: string[] = []): ReconcilerRun {
  const child = spawn(process.execPath, [...NODE_ARGS, "scripts/reconciler.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a log line
    }
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, done };
}
