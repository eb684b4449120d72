import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { control } from "./control";
import { header, stripeError, type Ctx, type Handled, type Reply } from "./handler";
import { retrieveEmail, searchEmails, sendEmail } from "./mailer";
import { createObject, listObjects, retrieveObject, searchCharges } from "./payments";
import type { RecordedRequest, SandboxState } from "./state";

export function createSandboxServer(state: SandboxState): Server {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://sandbox");
      const raw = Buffer.concat(chunks).toString("utf8");
      const control = url.pathname.startsWith("/_");
      // Control calls stay out of the request log: it records what API clients did.
      const log: RecordedRequest = control
        ? ({} as RecordedRequest)
        : state.logRequest({
            at: state.now(),
            method: req.method ?? "GET",
            path: url.pathname,
            idempotencyKey: header(req, "idempotency-key"),
            intentKey: null,
            status: null,
            fault: null,
            replayed: false,
            effectId: null,
          });
      handle({ req, res, url, raw, log }, state)
        .then((reply) => {
          if (reply === "dropped") return;
          if (!control) {
            log.status = reply.status;
            state.changed();
          }
          send(res, reply);
        })
        .catch((error: unknown) => {
          console.error("sandbox error", error);
          send(res, stripeError(500, "api_error", "sandbox internal error"));
        });
    });
  });
  server.keepAliveTimeout = 1_000;
  return server;
}

function send(res: ServerResponse, reply: Reply) {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(reply.status, {
    "content-type": "application/json",
    "request-id": `req_${Math.random().toString(36).slice(2, 16)}`,
    ...reply.headers,
  });
  res.end(JSON.stringify(reply.body));
}

async function handle(ctx: Ctx, state: SandboxState): Promise<Handled> {
  const { req, url } = ctx;
  const method = req.method ?? "GET";
  const p = url.pathname;
  let m: RegExpExecArray | null;

  if (p.startsWith("/_")) return control(ctx, state);

  if (p === "/v1/charges" && method === "POST") return createObject(ctx, state, "charge");
  if (p === "/v1/refunds" && method === "POST") return createObject(ctx, state, "refund");
  if (p === "/v1/charges/search" && method === "GET") return searchCharges(url, state);
  if (p === "/v1/charges" && method === "GET") return listObjects(url, state, "charge");
  if (p === "/v1/refunds" && method === "GET") return listObjects(url, state, "refund");
  if ((m = /^\/v1\/(charges|refunds)\/([\w]+)$/.exec(p)) && method === "GET")
    return retrieveObject(state, m[1] === "charges" ? "charge" : "refund", m[2]!);

  if (p === "/mailer/v1/messages" && method === "POST") return sendEmail(ctx, state);
  if (p === "/mailer/v1/messages" && method === "GET") return searchEmails(url, state);
  if ((m = /^\/mailer\/v1\/messages\/([\w]+)$/.exec(p)) && method === "GET")
    return retrieveEmail(state, m[1]!);
  return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${p})`);
}

export async function listen(server: Server, port: number, host = "127.0.0.1"): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return (server.address() as AddressInfo).port;
}
