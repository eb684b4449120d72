import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** One thing that really happened at the provider: the ground truth tests compare against. */
export type Effect = {
  id: string;
  kind: "charge" | "refund" | "email";
  /** The Idempotency-Key it was created under (payments), if any. */
  idempotencyKey: string | null;
  /** metadata.intent_key as the client sent it. */
  intentKey: string | null;
  createdAt: number;
  /** Put there by a test or the simulator through /_effects, not by an API client. */
  injected: boolean;
  body: Record<string, unknown>;
};

export type RecordedRequest = {
  seq: number;
  at: number;
  method: string;
  path: string;
  idempotencyKey: string | null;
  intentKey: string | null;
  status: number | null;
  fault: string | null;
  replayed: boolean;
  effectId: string | null;
};

export type IdempotencyRecord = {
  key: string;
  route: string;
  paramsDigest: string;
  createdAt: number;
  state: "in_flight" | "done";
  status?: number;
  body?: unknown;
};

export type FaultType = "http_429" | "http_500" | "delay" | "commit_then_drop";

export type FaultRule = {
  id: string;
  match: { idempotencyKey?: string; intentKey?: string; path?: string };
  fault: FaultType;
  delayMs?: number;
  /** How many matching requests it applies to; -1 for all. */
  remaining: number;
};

export type SandboxConfig = {
  /** How long payment idempotency keys are remembered (Stripe: at least 24 h). */
  keyRetentionMs: number;
  /** How long after creation an effect shows up in search. */
  paymentsSearchLagMs: number;
  mailerSearchLagMs: number;
};

export const DEFAULT_CONFIG: SandboxConfig = {
  keyRetentionMs: 24 * 3_600_000,
  paymentsSearchLagMs: 60_000,
  mailerSearchLagMs: 5_000,
};

type Persisted = {
  clockOffsetMs: number;
  effects: Effect[];
  requests: RecordedRequest[];
  idempotency: IdempotencyRecord[];
  config: SandboxConfig;
};

/** The provider's memory: effects, idempotency keys, the request log, faults and its clock. */
export class SandboxState {
  clockOffsetMs = 0;
  effects: Effect[] = [];
  requests: RecordedRequest[] = [];
  idempotency = new Map<string, IdempotencyRecord>();
  faults: FaultRule[] = [];
  config: SandboxConfig;
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    config: Partial<SandboxConfig> = {},
    private readonly file: string | null = null,
  ) {
    this.config = { ...DEFAULT_CONFIG, ...config };
    if (file && existsSync(file)) this.load(file);
  }

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  newId(prefix: string): string {
    return `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
  }

  addEffect(effect: Omit<Effect, "id"> & { id?: string }, prefix: string): Effect {
    const full: Effect = { ...effect, id: effect.id ?? this.newId(prefix) };
    this.effects.push(full);
    this.changed();
    return full;
  }

  /** The idempotency record for a key, if the provider still remembers it. */
  rememberedKey(key: string): IdempotencyRecord | null {
    const record = this.idempotency.get(key);
    if (!record) return null;
    if (record.state === "done" && record.createdAt + this.config.keyRetentionMs <= this.now()) {
      this.idempotency.delete(key);
      return null;
    }
    return record;
  }

  takeFault(request: {
    idempotencyKey: string | null;
    intentKey: string | null;
    path: string;
  }): FaultRule | null {
    const rule = this.faults.find(
      (f) =>
        f.remaining !== 0 &&
        (f.match.idempotencyKey === undefined || f.match.idempotencyKey === request.idempotencyKey) &&
        (f.match.intentKey === undefined || f.match.intentKey === request.intentKey) &&
        (f.match.path === undefined || request.path.startsWith(f.match.path)),
    );
    if (!rule) return null;
    if (rule.remaining > 0) rule.remaining -= 1;
    return rule;
  }

  logRequest(entry: Omit<RecordedRequest, "seq">): RecordedRequest {
    const full = { ...entry, seq: this.requests.length + 1 };
    this.requests.push(full);
    this.changed();
    return full;
  }

  reset(): void {
    this.clockOffsetMs = 0;
    this.effects = [];
    this.requests = [];
    this.idempotency.clear();
    this.faults = [];
    this.changed();
  }

  changed(): void {
    if (!this.file || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), 200);
  }

  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.file) return;
    const data: Persisted = {
      clockOffsetMs: this.clockOffsetMs,
      effects: this.effects,
      requests: this.requests,
      idempotency: [...this.idempotency.values()].filter((r) => r.state === "done"),
      config: this.config,
    };
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, this.file);
  }

  private load(file: string): void {
    const data = JSON.parse(readFileSync(file, "utf8")) as Persisted;
    this.clockOffsetMs = data.clockOffsetMs;
    this.effects = data.effects;
    this.requests = data.requests;
    this.idempotency = new Map(data.idempotency.map((r) => [r.key, r]));
    this.config = { ...this.config, ...data.config };
  }
}
