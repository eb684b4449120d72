import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

export type SandboxProcess = { url: string; child: ChildProcess; stop(): Promise<void> };

/**
 * Starts the sandbox provider as its own process (node with tsx's loader, so a
 * signal reaches the server itself) and resolves once it listens.
 */
export async function spawnSandbox(
  options: { port?: number; stateFile?: string | null; env?: Record<string, string> } = {},
): Promise<SandboxProcess> {
  const root = process.cwd();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/sandbox.ts")], {
    cwd: root,
    env: {
      ...process.env,
      SANDBOX_PORT: String(options.port ?? 0),
      SANDBOX_STATE_FILE: options.stateFile ?? "",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`the sandbox exited with code ${code} before listening`)));
  });
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
