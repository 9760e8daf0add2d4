/**
 * GET /events taken before Fastify (src/http/events-long-poll.ts, issue 21 item 4). What it must
 * keep: a client cannot tell which path answered. Each case sends the same request over a socket
 * (the long-poll path) and through `app.inject` (Fastify's route, which inject always reaches) and
 * compares status, body and the headers a client reads; the request log line, the metrics, the
 * rate limit and a client going away are checked on the socket path itself.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { plainPollQuery } from "../../src/http/events-long-poll.js";
import { Metrics } from "../../src/http/metrics.js";
import { createTestRealm, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** What a client reads of an answer: status, body and these headers. */
const COMPARED_HEADERS = ["content-type", "x-request-id", "www-authenticate", "x-content-type-options", "x-frame-options", "referrer-policy", "content-security-policy", "x-ratelimit-limit"];

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | undefined>;
}

function pick(headers: Record<string, unknown>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of COMPARED_HEADERS) out[name] = headers[name] === undefined ? undefined : String(headers[name]);
  return out;
}

describe("plain long-poll queries (the only ones taken before Fastify)", () => {
  const cases: Array<[string, ReturnType<typeof plainPollQuery>]> = [
    ["queue_id=abc", { queueId: "abc", lastEventId: undefined, dontBlock: false }],
    ["queue_id=w1-abc&last_event_id=-1", { queueId: "w1-abc", lastEventId: -1, dontBlock: false }],
    ["last_event_id=42&queue_id=q&dont_block=true", { queueId: "q", lastEventId: 42, dontBlock: true }],
    ["queue_id=q&dont_block=false", { queueId: "q", lastEventId: undefined, dontBlock: false }],
    // Everything else goes to Fastify's route, which parses, decodes and refuses as always.
    ["", null],
    ["last_event_id=3", null],
    ["queue_id=", null],
    ["queue_id=a&queue_id=b", null],
    ["queue_id=a%3A1%3Ab", { queueId: "a:1:b", lastEventId: undefined, dontBlock: false }],
    ["queue_id=a+b&last_event_id=%2D1", { queueId: "a b", lastEventId: -1, dontBlock: false }],
    ["queue_id=a%E0%A4%A", null],
    ["queue_id=q&last_event_id=01", null],
    ["queue_id=q&last_event_id=1.5", null],
    ["queue_id=q&last_event_id=99999999999999999", null],
    ["queue_id=q&dont_block=True", null],
    ["queue_id=q&dont_block", null],
    ["queue_id=q&apply_markdown=true", null],
  ];
  for (const [query, expected] of cases) {
    it(`"${query}"`, () => assert.deepEqual(plainPollQuery(query), expected));
  }
});

for (const kind of STORE_KINDS) {
  describe(`GET /events before Fastify answers as Fastify's route does [${kind}]`, () => {
    let r: TestRealm;
    let app: FastifyInstance;
    let base: string;
    const lines: string[] = [];
    const metrics = new Metrics();
    /** GET /events requests that reached Fastify's route (inject's always do; plain polls over a socket must not). */
    let throughRoute = 0;

    before(async () => {
      r = await createTestRealm(kind, { rateLimiting: true });
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(...String(chunk).split("\n").filter(Boolean));
          done();
        },
      });
      app = await buildApp(r.deps, { logger: { level: "info", stream }, metrics });
      app.addHook("onRequest", (request, _reply, done) => {
        if (request.url.startsWith("/api/v1/events")) throughRoute++;
        done();
      });
      await app.listen({ port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    });
    after(async () => {
      await app?.close();
      await r?.close();
    });

    const auth = (user: TestUser) => "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64");

    /** fetch cannot set Host, which names the realm: node:http can. */
    function overSocket(query: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const req = request(`${base}/api/v1/events?${query}`, { headers: { host: r.host, ...headers }, signal }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown>, headers: pick(res.headers) }));
        });
        req.on("error", reject);
        req.end();
      });
    }
    async function throughFastify(query: string, headers: Record<string, string>): Promise<Answer> {
      const res = await app.inject({ method: "GET", url: `/api/v1/events?${query}`, headers: { host: r.host, ...headers } });
      return { status: res.statusCode, body: res.json(), headers: pick(res.headers) };
    }
    /** Both answers, rate-limit counts aside (each request spends one). */
    async function both(query: string, headers: Record<string, string>): Promise<[Answer, Answer]> {
      // The caller's X-Request-Id is kept on both paths (Fastify's genReqId and requestIdFor).
      const before = throughRoute;
      const a = await overSocket(query, { "x-request-id": "trace-17", ...headers });
      const viaRoute = throughRoute > before;
      const b = await throughFastify(query, { "x-request-id": "trace-17", ...headers });
      assert.equal(viaRoute, query.startsWith("queue_id=no-such"), `${query}: the socket request ${viaRoute ? "reached" : "skipped"} Fastify's route`);
      return [a, b];
    }

    async function register(user: TestUser): Promise<string> {
      const res = await r.as(user).post("/register", { event_types: ["message"] });
      assert.equal(res.status, 200);
      // As clients send it: the id's ':' as %3A.
      return encodeURIComponent(res.body.queue_id as string);
    }

    it("answers waiting events with the same envelope, headers and request id rules", async () => {
      const queue = await register(r.users.hamlet);
      const sent = await r.as("iago").post("/messages", { type: "direct", to: [r.users.hamlet.id], content: "over the fast path" });
      assert.equal(sent.status, 200);
      const [socket, fastify] = await both(`queue_id=${queue}&last_event_id=-1&dont_block=true`, { authorization: auth(r.users.hamlet) });
      assert.equal(socket.status, 200);
      assert.deepEqual(socket, fastify);
      const events = socket.body.events as Array<{ type: string; message: { content: string } }>;
      assert.deepEqual([events.length, events[0].type, socket.body.queue_id], [1, "message", decodeURIComponent(queue)]);
      assert.match(events[0].message.content, /over the fast path/);
    });

    it("refuses as Fastify does: a wrong key, no key, another scheme, another user's queue, an unknown queue", async () => {
      const queue = await register(r.users.hamlet);
      const cases: Array<Record<string, string>> = [
        { authorization: "Basic " + Buffer.from(`${r.users.hamlet.email}:${"x".repeat(32)}`).toString("base64") },
        {},
        { authorization: "Bearer abc" },
        { authorization: auth(r.users.othello) },
      ];
      for (const headers of cases) {
        const [socket, fastify] = await both(`queue_id=${queue}&last_event_id=-1`, headers);
        assert.ok(socket.status >= 400, JSON.stringify(socket));
        assert.deepEqual(socket, fastify, JSON.stringify(headers));
      }
      // Unknown queue ids never take the fast path; Fastify's answer reaches the socket unchanged.
      const [socket, fastify] = await both("queue_id=no-such-queue&last_event_id=-1", { authorization: auth(r.users.hamlet) });
      assert.deepEqual([socket.status, socket.body.code], [400, "BAD_EVENT_QUEUE_ID"]);
      assert.deepEqual(socket, fastify);
    });

    it("parks until an event arrives, and lets go of a client that went away", async () => {
      const queue = await register(r.users.othello);
      const parked = overSocket(`queue_id=${queue}&last_event_id=-1`, { authorization: auth(r.users.othello) });
      await waitFor(() => r.deps.queues.parkedCount() === 1);
      await r.as("iago").post("/messages", { type: "direct", to: [r.users.othello.id], content: "wake up" });
      const answer = await parked;
      assert.equal(answer.status, 200);
      assert.equal((answer.body.events as unknown[]).length, 1);

      const controller = new AbortController();
      const gone = overSocket(`queue_id=${queue}&last_event_id=${(answer.body.events as Array<{ id: number }>)[0].id}`, { authorization: auth(r.users.othello) }, controller.signal).catch((e: Error) => e.name);
      await waitFor(() => r.deps.queues.parkedCount() === 1);
      controller.abort();
      assert.equal(await gone, "AbortError");
      await waitFor(() => r.deps.queues.parkedCount() === 0);
    });

    it("writes the request's log line and metrics, and sends the rate-limit headers", async () => {
      const queue = await register(r.users.cordelia);
      lines.length = 0;
      const answer = await overSocket(`queue_id=${queue}&dont_block=true`, { authorization: auth(r.users.cordelia), "x-request-id": "line-check" });
      assert.equal(answer.status, 200);
      assert.match(answer.headers["x-ratelimit-limit"] ?? "", /^\d+$/);
      await waitFor(() => lines.some((l) => l.includes('"line-check"')));
      const entry = JSON.parse(lines.find((l) => l.includes('"line-check"'))!);
      assert.deepEqual(
        [entry.reqId, entry.msg, entry.method, entry.route, entry.status, entry.user_id, entry.realm, entry.remote_address],
        ["line-check", "request", "GET", "/api/v1/events", 200, r.users.cordelia.id, r.subdomain, "127.0.0.1"],
      );
      const scraped = await metrics.registry.metrics();
      assert.match(scraped, /parley_http_requests_total\{method="GET",route="\/api\/v1\/events",status="200"\} \d+/);
    });
  });
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail("condition not met within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
