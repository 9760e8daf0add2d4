/**
 * Wires the contract (./validator.ts) into every test process that imports test/helpers/fixtures.ts
 * (every test that builds an app does): each Fastify instance the process creates (announced on the
 * `fastify.initialization` diagnostics channel) gets an onSend hook that validates every JSON answer
 * under /api/v1, and every event a queue accepts is validated as the client will receive it.
 *
 * A violation fails the test at the request that caused it: `app.inject()` throws, naming the
 * operation, the JSON path and the schema rule. Answers not fetched by inject (a listening server
 * driven by fetch) and events delivered outside a request are thrown at the next inject, or fail
 * the test file at exit. A server the tests run as a child process (./child.ts) reports them in a
 * response header instead, which the test's client turns into the same error (CONTRACT_HEADER).
 * `PARLEY_CONTRACT_COLLECT=<file>` appends violations to the file (JSON lines) instead of failing,
 * to survey a whole run; `PARLEY_CONTRACT_STATS=<dir>` (set by scripts/run-tests.mjs) receives
 * what each process validated, for the run's summary.
 */
import { channel } from "node:diagnostics_channel";
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ENDPOINTS } from "../../../src/api/index.js";
import { EventQueue, type QueuedEvent } from "../../../src/events/queue.js";
import { API_PREFIX } from "../../../src/http/router.js";
import { OPENAPI_PATH, type Json } from "./document.js";
import { contract, describeViolation, type Violation } from "./validator.js";

/** What this process validated (the summary test and the run's summary print it). */
export const stats = {
  installed: false,
  responses: 0,
  events: 0,
  operations: new Set<string>(),
  eventTypes: new Set<string>(),
  violations: 0,
};

const unclaimed: Violation[] = [];
const PARLEY_ROUTES = new Set(ENDPOINTS.map((ep) => `${ep.method} ${ep.path}`));
const collectFile = process.env.PARLEY_CONTRACT_COLLECT;
/** The header in which a server in a child process reports the violations of its answer. */
export const CONTRACT_HEADER = "x-parley-contract-violations";
let reportInHeader = false;

export class ContractViolation extends Error {
  override name = "ContractViolation";
  /** The inject response whose completion raised it (callers that report problems themselves use it). */
  response: unknown;
}

const testFile = () => process.argv.find((a) => a.endsWith(".test.ts")) ?? process.argv[1];

function record(violations: Violation[]): void {
  if (violations.length === 0) return;
  stats.violations += violations.length;
  if (collectFile) {
    appendFileSync(collectFile, violations.map((v) => JSON.stringify({ file: testFile(), ...v }) + "\n").join(""));
    return;
  }
  unclaimed.push(...violations);
}

function violationReport(violations: readonly Violation[]): string {
  const lines = violations.slice(0, 20).map((v) => `  ${describeViolation(v)}`);
  if (violations.length > 20) lines.push(`  … and ${violations.length - 20} more`);
  return `the answer breaks Zulip's API contract (test/helpers/contract/; whitelist only in deviations.ts):\n${lines.join("\n")}`;
}

/** Throws the violations recorded since the last call (none in collecting mode). */
export function claimViolations(response?: unknown): void {
  if (unclaimed.length === 0) return;
  const error = new ContractViolation(violationReport(unclaimed.splice(0)));
  error.response = response;
  throw error;
}

/** For a client of a server in a child process: throws what the server reported in the header. */
export function claimReportedViolations(header: string | null | undefined): void {
  if (header) throw new ContractViolation(decodeURIComponent(header));
}

function bodyOf(payload: unknown): unknown {
  const text = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : null;
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Validates one answer under /api/v1; a no-op elsewhere (uploads, web pages, sessions). */
export function checkAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const checker = contract();
  if (!checker || !request.url.startsWith(`${API_PREFIX}/`)) return;
  if (!String(reply.getHeader("content-type") ?? "").includes("application/json")) return;
  const url = request.routeOptions.url;
  const route = url?.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : null;
  const method = request.method;
  const testEndpoint = route !== null && !PARLEY_ROUTES.has(`${method} ${route}`) && reply.statusCode !== 405;
  const violations = checker.checkResponse(method, route, reply.statusCode, bodyOf(payload), testEndpoint);
  stats.responses++;
  if (PARLEY_ROUTES.has(`${method} ${route}`)) stats.operations.add(`${method} ${route}`);
  record(violations);
}

/** Validates the event a queue has just accepted, as its client will receive it. */
export function checkQueuedEvent(event: QueuedEvent): void {
  const checker = contract();
  if (!checker) return;
  stats.events++;
  stats.eventTypes.add(`${String(event.type)}${event.op === undefined ? "" : `/${String(event.op)}`}`);
  record(checker.checkEvent(event as Json));
}

function instrument(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    checkAnswer(request, reply, payload);
    if (reportInHeader && unclaimed.length > 0) reply.header(CONTRACT_HEADER, encodeURIComponent(violationReport(unclaimed.splice(0))).slice(0, 6000));
    return payload;
  });
  const inject = app.inject.bind(app) as (opts?: unknown, callback?: unknown) => unknown;
  // The promise form is what the tests use; the chain and callback forms pass through, and their
  // violations are thrown at the next inject or at exit.
  (app as { inject: unknown }).inject = (opts?: unknown, callback?: unknown) => {
    if (opts === undefined || callback !== undefined) return inject(opts, callback);
    return (inject(opts) as Promise<unknown>).then((res) => {
      claimViolations(res);
      return res;
    });
  };
}

function reportAtExit(): void {
  process.on("exit", () => {
    const dir = process.env.PARLEY_CONTRACT_STATS;
    if (dir) {
      mkdirSync(dir, { recursive: true });
      const summary = { file: testFile(), ...stats, operations: [...stats.operations], eventTypes: [...stats.eventTypes] };
      writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(summary));
    }
    if (unclaimed.length > 0) {
      process.stderr.write(`\nContract violations no request collected (a listening server, or events outside a request):\n${unclaimed.map((v) => `  ${describeViolation(v)}`).join("\n")}\n`);
      process.exitCode = 1;
    }
  });
}

/**
 * Installs the hooks once per process; without ../shared it does nothing (stats.installed stays
 * false). `inHeader`: this process is a server run by a test, which reads the report header.
 */
export function installContractHooks(opts: { inHeader?: boolean } = {}): void {
  reportInHeader ||= opts.inHeader === true;
  // The document itself is loaded on the first answer, so processes that serve none pay nothing.
  if (stats.installed || !existsSync(OPENAPI_PATH)) return;
  stats.installed = true;
  channel("fastify.initialization").subscribe((message) => instrument((message as { fastify: FastifyInstance }).fastify));
  const push = EventQueue.prototype.push;
  EventQueue.prototype.push = function (this: EventQueue, event, shapes) {
    const before = this.lastEventId;
    push.call(this, event, shapes);
    if (this.lastEventId !== before) {
      const last = this.pendingEntries().at(-1)!;
      checkQueuedEvent({ ...last.event, id: last.id } as QueuedEvent);
    }
  };
  reportAtExit();
}
