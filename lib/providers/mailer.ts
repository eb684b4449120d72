import { digest, sha256Hex } from "@/lib/digest";
import { maskEmail } from "@/lib/redact";
import { lookupResult } from "./classify";
import { inconclusive } from "./payments";
import type { CallOutcome, Candidate, Expectation, LookupMethod, LookupResult } from "./types";

/** The mailer has no idempotency: a retry after a lost answer may send twice. */
export type MailerConfig = { baseUrl: string; timeoutMs: number };

export type EmailRequest = {
  to: string;
  template: string;
  variables: Record<string, string>;
  metadata: Record<string, string>;
};

export function recipientDigest(email: string): string {
  return sha256Hex(email.trim().toLowerCase());
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

async function call(config: MailerConfig, path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(new URL(path, config.baseUrl), {
    ...init,
    headers: { "content-type": "application/json", ...init.headers },
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new HttpError(response.status, body);
  return body;
}

function errorClassOf(error: unknown): { errorClass: string; definitive: boolean; executed: boolean } {
  if (error instanceof HttpError) {
    const type = (error.body as { error?: { type?: string } } | null)?.error?.type;
    if (error.status === 429) return { errorClass: "http_429", definitive: false, executed: false };
    if (error.status >= 500) return { errorClass: `http_${error.status}`, definitive: false, executed: true };
    return { errorClass: type ?? `http_${error.status}`, definitive: true, executed: false };
  }
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return { errorClass: "timeout", definitive: false, executed: true };
  }
  return { errorClass: "connection_lost", definitive: false, executed: true };
}

export async function sendEmail(config: MailerConfig, request: EmailRequest): Promise<CallOutcome> {
  try {
    const body = (await call(config, "/mailer/v1/messages", {
      method: "POST",
      body: JSON.stringify(request),
    })) as { id: string };
    return { kind: "ok", resultId: body.id, responseDigest: digest(body), providerRequestId: body.id };
  } catch (error) {
    const e = errorClassOf(error);
    if (e.definitive)
      return {
        kind: "definitive",
        errorClass: e.errorClass,
        responseDigest: digest((error as HttpError).body ?? {}),
      };
    if (!e.executed) return { kind: "not_executed", errorClass: e.errorClass };
    // No idempotency: a 5xx, a timeout or a reset may have sent the message.
    return { kind: "ambiguous", errorClass: e.errorClass };
  }
}

type Message = {
  id: string;
  to: string;
  template: string;
  created: number;
  status?: string;
  metadata?: Record<string, string>;
};

function candidate(m: Message): Candidate {
  return {
    id: m.id,
    recipientDigest: recipientDigest(m.to),
    recipientMasked: maskEmail(m.to),
    template: m.template,
    intentKey: m.metadata?.intent_key ?? null,
    createdAt: new Date(m.created * 1000).toISOString(),
    status: m.status,
  };
}

export type MailerSubject = {
  expected: Expectation;
  knownResultId: string | null;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
  visibilityDelayMs: number;
  responseWindowMs: number;
};

export async function lookupEmail(
  config: MailerConfig,
  subject: MailerSubject,
  method: LookupMethod,
  now: Date,
): Promise<LookupResult> {
  if (method === "idempotency_key") return inconclusive(method, "unsupported_by_provider");
  let query: string;
  let lagged: boolean;
  let run: () => Promise<{ candidates: Candidate[]; raw: unknown }>;
  if (method === "provider_request_id") {
    if (!subject.knownResultId) return inconclusive(method, "no_provider_id_recorded");
    query = `message ${subject.knownResultId}`;
    lagged = false;
    run = async () => {
      try {
        const m = (await call(
          config,
          `/mailer/v1/messages/${encodeURIComponent(subject.knownResultId!)}`,
        )) as Message;
        return { candidates: [candidate(m)], raw: m };
      } catch (error) {
        if (error instanceof HttpError && error.status === 404)
          return { candidates: [], raw: { missing: subject.knownResultId } };
        throw error;
      }
    };
  } else {
    if (!subject.expected.template || !subject.expected.recipientDigest)
      return inconclusive(method, "not_enough_attributes");
    // The ledger keeps only a digest of the recipient, so search by template and
    // time window, then compare recipients by digest here.
    const from = Math.floor(subject.firstAttemptAt.getTime() / 1000) - 60;
    const to = Math.ceil((subject.lastAttemptAt.getTime() + subject.responseWindowMs) / 1000) + 60;
    query = `template=${subject.expected.template} created ${from}..${to}, recipient by digest`;
    lagged = true;
    run = async () => {
      const params = new URLSearchParams({
        template: subject.expected.template!,
        created_gte: String(from),
        created_lte: String(to),
      });
      const body = (await call(config, `/mailer/v1/messages?${params}`)) as { data: Message[] };
      const mine = body.data.filter((m) => recipientDigest(m.to) === subject.expected.recipientDigest);
      return { candidates: mine.map(candidate), raw: mine.map((m) => ({ ...m, to: recipientDigest(m.to) })) };
    };
  }
  try {
    const { candidates, raw } = await run();
    return lookupResult(method, { candidates, raw, query, lagged }, subject, now);
  } catch (error) {
    return inconclusive(method, errorClassOf(error).errorClass, { query });
  }
}
