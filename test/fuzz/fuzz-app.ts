/**
 * The app the fuzz suite attacks and the properties every response must have (issue 9, item 2):
 * - an answer within the per-request timeout (no hang);
 * - 2xx with `result: "success"`, or a 4xx Zulip error envelope `{"result":"error","msg":…,"code":…}`
 *   (405 carries `allowed_methods` instead of a code, zulip-facts section e); never a 5xx; and the
 *   answer, and every event it queues, holds to Zulip's API contract (test/helpers/contract/);
 * - a failed request changes nothing: no committed row change (./change-log.ts) and no event.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import type { AppDeps } from "../../src/deps.js";
import { LocalEventBus, type ChatEvent } from "../../src/events/bus.js";
import type { AnyEndpoint } from "../../src/http/endpoint.js";
import { testDeps } from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import { openTestStore, type StoreKind, type TestStore } from "../helpers/stores.js";
import { multipartBody } from "../helpers/uploads.js";
import { changesSince, installChangeLog, storeFingerprint } from "./change-log.js";
import type { FuzzRealm } from "./fuzz-realm.js";
import { ContractViolation } from "../helpers/contract/hook.js";
import { realmExportsIdle } from "../../src/actions/realm-export/run-export.js";
import { encodeParams, urlPath, type FuzzRequest } from "./requests.js";

export interface FuzzApp {
  app: FastifyInstance;
  deps: AppDeps;
  /** Events published since the app started. */
  events: ChatEvent[];
  /** Lines the server logged at level error (the stack of a 500). */
  errorLog: string[];
  close(): Promise<void>;
}

/**
 * A GET /events long-poll on a valid queue parks until the heartbeat; a short one keeps such runs
 * fast (the per-request timeout is far longer, so a real hang still shows).
 */
const HEARTBEAT_SECONDS = 0.01;

export async function openFuzzApp(kind: StoreKind): Promise<FuzzApp> {
  const testStore: TestStore = await openTestStore(kind);
  await installChangeLog(testStore.store);
  const scratch = mkdtempSync(join(tmpdir(), "parley-fuzz-"));
  const deps = testDeps(testStore.store, { uploadsDir: join(scratch, "uploads"), varDir: scratch, eventHeartbeatSeconds: HEARTBEAT_SECONDS });
  const events: ChatEvent[] = [];
  if (!(deps.events instanceof LocalEventBus)) throw new Error("the fuzz app records events from an in-process bus");
  deps.events.subscribe((event) => events.push(event));
  const errorLog: string[] = [];
  const app = await buildApp(deps, { logger: { level: "error", stream: { write: (line: string) => errorLog.push(line) } } });
  return {
    app,
    deps,
    events,
    errorLog,
    async close() {
      await app.close();
      await testStore.cleanup();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

type Body = Record<string, unknown>;

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function envelopeProblems(status: number, body: Body | undefined): string[] {
  if (!body) return [`${status} without a JSON body`];
  if (status >= 200 && status < 300) {
    return body.result === "success" && typeof body.msg === "string" ? [] : [`${status} but not a success envelope`];
  }
  if (status < 400 || status >= 500) return [`status ${status}`];
  if (status === 405) return body.result === "error" && Array.isArray(body.allowed_methods) ? [] : ["405 without allowed_methods"];
  const ok = body.result === "error" && typeof body.msg === "string" && typeof body.code === "string";
  return ok ? [] : [`${status} without a Zulip error envelope`];
}

/** A logged server error, short: its type, the start of its message and where it was thrown. */
function loggedError(line: string): string {
  try {
    const err = (JSON.parse(line) as { err?: { type?: string; message?: string; stack?: string } }).err ?? {};
    const frames = (err.stack ?? "").split("\n").filter((l) => l.trimStart().startsWith("at ")).slice(0, 8);
    return [`server error ${err.type}: ${(err.message ?? "").slice(0, 300)}`, ...frames].join("\n");
  } catch {
    return line.slice(0, 2000);
  }
}

/**
 * Invitations are the one documented partial success: INVITATION_FAILED with sent_invitations
 * true means the other addresses were invited (spec section 7).
 */
const partialSuccess = (body: Body | undefined) => body?.code === "INVITATION_FAILED" && body.sent_invitations === true;

export interface Outcome {
  /** Every property the request broke (empty when all hold). */
  problems: string[];
  /** It succeeded (2xx), so it may have changed the realm. */
  succeeded: boolean;
}

/** Sends one fuzzed request and checks the response and the store against the properties above. */
export async function checkRequest(fuzz: FuzzApp, realm: FuzzRealm, ep: AnyEndpoint, req: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  const encoded = encodeParams(req, multipartBody);
  const headers: Record<string, string> = { host: realm.host };
  if (req.caller) headers.authorization = basicAuth(realm.users[req.caller]);
  if (encoded.contentType) headers["content-type"] = encoded.contentType;
  const url = `/api/v1${urlPath(ep, req)}${encoded.query ? `?${encoded.query}` : ""}`;
  // Export jobs of earlier requests finish in the background: let them, so their writes and events
  // are not taken for this request's.
  await realmExportsIdle();
  const before = await storeFingerprint(fuzz.deps.store);
  const [eventsBefore, errorsBefore] = [fuzz.events.length, fuzz.errorLog.length];
  const started = performance.now();
  // A contract violation is one more broken property of this request, reported with the others.
  const contract: string[] = [];
  const injected = fuzz.app.inject({ method: ep.method, url, headers, payload: encoded.payload }).catch((error: unknown) => {
    if (!(error instanceof ContractViolation)) throw error;
    contract.push(error.message);
    return error.response as Awaited<ReturnType<FastifyInstance["inject"]>>;
  });
  const res = await withTimeout(injected, timeoutMs);
  // A handler that blocks the event loop also blocks the timer, so the time taken is checked too.
  const elapsed = Math.round(performance.now() - started);
  if (res === "timeout" || elapsed > timeoutMs) return { problems: [`no response within ${timeoutMs} ms (took ${elapsed} ms)`], succeeded: false };
  let body: Body | undefined;
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  const problems = [...envelopeProblems(res.statusCode, body), ...contract];
  if (res.statusCode >= 500) problems.push(`response: ${res.body.slice(0, 300)}`, ...fuzz.errorLog.slice(errorsBefore).map(loggedError));
  const published = fuzz.events.slice(eventsBefore);
  if (res.statusCode >= 300 && !partialSuccess(body)) {
    const after = await storeFingerprint(fuzz.deps.store);
    if (after !== before) problems.push(`failed request changed the store: ${JSON.stringify(await changesSince(fuzz.deps.store, before))}`);
    if (published.length > 0) problems.push(`failed request published ${published.map((e) => `${String(e.type)}/${String(e.op)}`).join(", ")}`);
  }
  if (problems.length > 0 && body) problems.unshift(`→ ${res.statusCode} ${JSON.stringify(body).slice(0, 300)}`);
  return { problems, succeeded: res.statusCode < 300 };
}
