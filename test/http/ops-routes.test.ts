/**
 * The operator's endpoints and the access log (issue 18, items 3 and 7), in process:
 * - GET /health: 200 with the store answering; 503 naming the part that does not (a bus whose
 *   Redis is away, a store that fails), outside the API's rate limits;
 * - GET /metrics: Prometheus text with request counts and durations by route and status, event
 *   queues, parked long-polls and the bus's state; only for this machine unless METRICS_TOKEN is
 *   given, and then only with it;
 * - one JSON line per request with method, route, status, duration, user, realm, error code and
 *   the request id (the caller's X-Request-Id when sane, echoed back).
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../../src/app.js";
import type { AppDeps } from "../../src/deps.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function logCapture(): { stream: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

for (const kind of STORE_KINDS) {
  describe(`/health, /metrics and the access log [${kind}]`, () => {
    let t: TestRealm;
    let app: Awaited<ReturnType<typeof buildApp>>;
    const log = logCapture();
    const basic = (name: "iago" | "hamlet") => "Basic " + Buffer.from(`${t.users[name].email}:${t.users[name].apiKey}`).toString("base64");
    before(async () => {
      t = await createTestRealm(kind, { rateLimiting: true });
      app = await buildApp(t.deps, { logger: { level: "info", stream: log.stream } });
    });
    after(async () => {
      await app.close();
      await t.close();
    });

    it("reports healthy while the store answers, without counting against rate limits", async () => {
      for (let i = 0; i < 150; i++) assert.equal((await app.inject({ method: "GET", url: "/health" })).statusCode, 200);
      const res = await app.inject({ method: "GET", url: "/health" });
      assert.deepEqual(res.json().checks, { database: "ok" });
      assert.equal(res.json().result, "success");
    });

    it("answers 503 naming the failing part", async () => {
      const redisDown: AppDeps = { ...t.deps, config: { ...t.deps.config, redisUrl: "redis://127.0.0.1:1" }, events: { publish() {}, unavailable: () => "the connection to Redis was lost", ping: async () => Promise.reject(new Error("the connection to Redis was lost")) } };
      const sick = await buildApp(redisDown, { logger: false });
      try {
        const res = await sick.inject({ method: "GET", url: "/health" });
        assert.equal(res.statusCode, 503);
        assert.deepEqual(res.json().failing, ["redis"]);
        assert.equal(res.json().result, "error");
        assert.match(res.json().msg, /redis: the connection to Redis was lost/);
        // While the bus is down, writes and registers are refused at once; reads go on.
        const headers = { host: t.host, authorization: basic("hamlet") };
        const send = await sick.inject({ method: "POST", url: "/api/v1/messages", headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, payload: "type=private&to=%5B%5D&content=x" });
        assert.equal(send.statusCode, 503);
        assert.equal(send.headers["retry-after"], "5");
        assert.equal((await sick.inject({ method: "POST", url: "/api/v1/register", headers })).statusCode, 503);
        assert.equal((await sick.inject({ method: "GET", url: "/api/v1/users/me", headers })).statusCode, 200);
      } finally {
        await sick.close();
      }
      const brokenStore = { ...t.deps.store, db: { ...t.deps.store.db, getExecutor: () => { throw new Error("store closed"); } } } as unknown as AppDeps["store"];
      const noStore = await buildApp({ ...t.deps, store: brokenStore }, { logger: false });
      try {
        const res = await noStore.inject({ method: "GET", url: "/health" });
        assert.equal(res.statusCode, 503);
        assert.deepEqual(res.json().failing, ["database"]);
      } finally {
        await noStore.close();
      }
    });

    it("serves Prometheus metrics to this machine only", async () => {
      const headers = { host: t.host, authorization: basic("iago") };
      await app.inject({ method: "GET", url: "/api/v1/users/me", headers });
      await app.inject({ method: "POST", url: "/api/v1/register", headers });
      const res = await app.inject({ method: "GET", url: "/metrics" });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers["content-type"] as string, /^text\/plain; version=0\.0\.4/);
      assert.match(res.body, /parley_http_requests_total\{method="GET",route="\/api\/v1\/users\/me",status="200"\} 1/);
      assert.match(res.body, /parley_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/health",status="200"\}/);
      assert.match(res.body, /parley_event_queues [1-9]/);
      assert.match(res.body, /parley_long_polls_parked 0/);
      assert.match(res.body, /parley_event_bus_up 1/);
      assert.match(res.body, /parley_build_info\{version="[^"]+"\} 1/);
      if (kind === "postgres") {
        assert.match(res.body, /parley_store_pool_connections\{state="max"\} 10/);
        // The register's reads went together: fewer round trips than statements.
        const counted = (k: string) => Number(new RegExp(`parley_store_autocommit_total\\{kind="${k}"\\} (\\d+)`).exec(res.body)?.[1]);
        assert.ok(counted("round_trips") > 0 && counted("round_trips") < counted("statements"), `${counted("round_trips")} round trips for ${counted("statements")} statements`);
        assert.equal(counted("batches_retried"), 0);
      } else assert.doesNotMatch(res.body, /parley_store_autocommit_total/);
      const proxied = await app.inject({ method: "GET", url: "/metrics", headers: { "x-forwarded-for": "203.0.113.7" } });
      assert.equal(proxied.statusCode, 403, "not through a proxy");
      assert.match(proxied.json().msg, /METRICS_TOKEN/);
      const remote = await app.inject({ method: "GET", url: "/metrics", remoteAddress: "203.0.113.7" });
      assert.equal(remote.statusCode, 403, "not from another machine");
    });

    it("with METRICS_TOKEN, serves metrics to its bearer only, from anywhere", async () => {
      const tokened = await buildApp({ ...t.deps, config: { ...t.deps.config, metricsToken: "scrape-secret-1" } }, { logger: false });
      try {
        assert.equal((await tokened.inject({ method: "GET", url: "/metrics", remoteAddress: "203.0.113.7", headers: { authorization: "Bearer scrape-secret-1" } })).statusCode, 200);
        assert.equal((await tokened.inject({ method: "GET", url: "/metrics", headers: { authorization: "Bearer wrong" } })).statusCode, 403);
        assert.equal((await tokened.inject({ method: "GET", url: "/metrics" })).statusCode, 403);
      } finally {
        await tokened.close();
      }
    });

    it("logs one JSON line per request, with who, where, what came of it and the request id", async () => {
      log.lines.length = 0;
      const ok = await app.inject({ method: "GET", url: "/api/v1/users/me", headers: { host: t.host, authorization: basic("hamlet"), "x-request-id": "nginx-4f2a9c" } });
      assert.equal(ok.headers["x-request-id"], "nginx-4f2a9c", "the caller's id is kept and echoed");
      const bad = await app.inject({ method: "GET", url: "/api/v1/messages/12345678", headers: { host: t.host, authorization: basic("hamlet"), "x-request-id": "has spaces\tand tabs" } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.headers["x-request-id"] as string, UUID, "an unsafe id is replaced");
      assert.equal(log.lines.length, 2, JSON.stringify(log.lines));
      const [first, second] = log.lines;
      assert.equal(first.msg, "request");
      assert.equal(first.reqId, "nginx-4f2a9c");
      assert.equal(first.method, "GET");
      assert.equal(first.route, "/api/v1/users/me");
      assert.equal(first.status, 200);
      assert.equal(typeof first.duration_ms, "number");
      assert.equal(first.user_id, t.users.hamlet.id);
      assert.equal(first.realm_id, t.realmId);
      assert.equal(first.realm, t.subdomain);
      assert.equal(first.error_code, undefined);
      assert.equal(second.route, "/api/v1/messages/:message_id");
      assert.equal(second.url, "/api/v1/messages/12345678");
      assert.equal(second.error_code, "BAD_REQUEST");
      assert.equal(second.status, 400);
    });
  });
}
