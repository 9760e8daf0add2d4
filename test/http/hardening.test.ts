/**
 * Transport hardening (issue 9, item 5): security headers and a request id on every response, size
 * caps enforced by Node and the router, timeouts that spare long-polls, and logs that never carry
 * credentials. The header and cap checks are store-independent (SQLite only); the log checks go
 * through the real login and authentication paths on every store.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../../src/app.js";
import { endpoint } from "../../src/http/endpoint.js";
import { redactUrl } from "../../src/http/hardening.js";
import { p } from "../../src/http/params.js";
import { constantTimeEqual } from "../../src/lib/secrets.js";
import { createTestRealm, PASSWORD, type TestRealm } from "../helpers/fixtures.js";
import { buildEndpointApp, send, type EchoApp } from "../helpers/http.js";
import { STORE_KINDS } from "../helpers/stores.js";

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const TEST_ENDPOINTS = [
  endpoint({ method: "GET", path: "/thing", auth: "none", params: {}, async handler() { return { ok: true }; } }),
  endpoint({ method: "GET", path: "/boom", auth: "none", params: {}, async handler(): Promise<void> { throw new Error("kaboom"); } }),
  endpoint({ method: "GET", path: "/member-only", auth: "user", params: {}, async handler() { return {}; } }),
  endpoint({ method: "POST", path: "/sink", auth: "none", params: { data: p.str().optional() }, async handler() { return {}; } }),
  endpoint({ method: "GET", path: "/names/:name", auth: "none", params: { name: p.str().path() }, async handler(_ctx, params) { return { length: params.name.length }; } }),
  endpoint({
    method: "GET",
    path: "/own-policy",
    auth: "none",
    params: {},
    async handler(ctx) {
      ctx.reply.header("Content-Security-Policy", "sandbox");
      return {};
    },
  }),
];

/** A writable that keeps every pino line, for inspection. */
function logCapture(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

/** Sends raw bytes to a listening server and resolves with the HTTP status of the answer. */
function rawStatus(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let data = "";
    socket.on("data", (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on("error", reject);
  });
}

describe("security headers and request ids", () => {
  let h: EchoApp;
  const log = logCapture();
  before(async () => {
    h = await buildEndpointApp(TEST_ENDPOINTS, { logger: { level: "error", stream: log.stream }, bodyLimit: 4096 });
  });
  after(() => h.close());

  it("puts the security headers and a fresh request id on successes and on every kind of error", async () => {
    const ids = new Set<string>();
    const cases: Array<[number, () => Promise<{ status: number; headers: Record<string, unknown> }>]> = [
      [200, () => send(h.app, "GET", "/thing")],
      [404, () => send(h.app, "GET", "/no/such/thing")],
      [405, () => send(h.app, "DELETE", "/thing")],
      [401, () => send(h.app, "GET", "/member-only")],
      [413, () => send(h.app, "POST", "/sink", { form: { data: "x".repeat(5000) } })],
      [500, () => send(h.app, "GET", "/boom")],
    ];
    for (const [status, call] of cases) {
      const res = await call();
      assert.equal(res.status, status);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers[name], value, `${status} ${name}`);
      assert.match(String(res.headers["x-request-id"]), UUID);
      ids.add(String(res.headers["x-request-id"]));
    }
    assert.equal(ids.size, cases.length, "one id per request");
  });

  it("merges duplicate slashes as Zulip's nginx does (the Python bindings send /api/v1//path for a path given with a leading slash)", async () => {
    assert.deepEqual((await send(h.app, "GET", "/api/v1//thing")).body, { result: "success", msg: "", ok: true });
    assert.equal((await send(h.app, "GET", "/api//v1/names/abc")).body.length, 3);
  });

  it("leaves a header the route set itself (uploaded files carry their own CSP)", async () => {
    const res = await send(h.app, "GET", "/own-policy");
    assert.equal(res.headers["content-security-policy"], "sandbox");
    assert.equal(res.headers["x-frame-options"], "DENY");
  });

  it("logs a 500 under the request id the client received", async () => {
    log.lines.length = 0;
    const res = await send(h.app, "GET", "/boom");
    const entry = log.lines.map((line) => JSON.parse(line)).find((e) => e.msg === "unhandled error");
    assert.ok(entry, log.lines.join("\n"));
    assert.equal(entry.reqId, res.headers["x-request-id"]);
  });
});

describe("size caps and timeouts on a listening server", () => {
  let h: EchoApp;
  let port: number;
  before(async () => {
    h = await buildEndpointApp(TEST_ENDPOINTS);
    await h.app.listen({ port: 0, host: "127.0.0.1" });
    port = (h.app.server.address() as { port: number }).port;
  });
  after(() => h.close());

  it("answers 431 to headers over 16 KiB, and serves headers under it", async () => {
    const request = (size: number) => `GET /api/v1/thing HTTP/1.1\r\nHost: localhost\r\nX-Filler: ${"a".repeat(size)}\r\nConnection: close\r\n\r\n`;
    assert.equal(await rawStatus(port, request(17 * 1024)), 431);
    assert.equal(await rawStatus(port, request(8 * 1024)), 200);
  });

  it("routes path parameters up to 1024 characters (long upload names), refusing longer and malformed ones in Zulip's envelope", async () => {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/names/${"n".repeat(1024)}`);
    assert.deepEqual([ok.status, (await ok.json()).length], [200, 1024]);
    const tooLong = await fetch(`http://127.0.0.1:${port}/api/v1/names/${"n".repeat(1025)}`);
    assert.equal(tooLong.status, 414);
    assert.deepEqual(await tooLong.json(), { result: "error", msg: "URI Too Long", code: "BAD_REQUEST" });
    assert.equal(tooLong.headers.get("x-frame-options"), "DENY");
    assert.match(tooLong.headers.get("x-request-id") ?? "", UUID);
    const badEscape = await fetch(`http://127.0.0.1:${port}/api/v1/names/%E0%A4%A`);
    assert.equal(badEscape.status, 400);
    assert.deepEqual(await badEscape.json(), { result: "error", msg: "Invalid URL", code: "BAD_REQUEST" });
  });

  it("refuses a multipart field cut short by the size cap instead of passing on a truncated value", async () => {
    const big = new FormData();
    big.append("data", "x".repeat(2 * 1024 * 1024 + 1));
    const res = await send(h.app, "POST", "/sink", { multipart: big });
    assert.deepEqual([res.status, res.body], [413, { result: "error", msg: "Request body is too large", code: "BAD_REQUEST" }]);
    const fits = new FormData();
    fits.append("data", "x".repeat(1024));
    assert.equal((await send(h.app, "POST", "/sink", { multipart: fits })).status, 200);
  });
  it("times out slow headers and slow bodies, but not a socket parked for a whole long-poll", () => {
    const server = h.app.server;
    assert.equal(server.headersTimeout, 20_000);
    assert.equal(server.requestTimeout, 120_000);
    assert.equal(server.keepAliveTimeout, 65_000);
    // The socket idle timeout outlasts the heartbeat that ends a parked GET /events.
    assert.equal(server.timeout, h.deps.config.eventHeartbeatSeconds * 1000 + 60_000);
    assert.ok(server.timeout > h.deps.config.eventHeartbeatSeconds * 1000);
  });
});

describe("redactUrl", () => {
  it("censors secret query parameters however encoded, and the temporary upload token", () => {
    assert.equal(redactUrl("/api/v1/fetch_api_key?username=a%40b&password=hunter2&x=1"), "/api/v1/fetch_api_key?username=a%40b&password=[Redacted]&x=1");
    assert.equal(redactUrl("/api/v1/x?pass%77ord=s&api_key=k&new_password=n&token=t"), "/api/v1/x?pass%77ord=[Redacted]&api_key=[Redacted]&new_password=[Redacted]&token=[Redacted]");
    assert.equal(redactUrl("/user_uploads/temporary/AbC123/file.png"), "/user_uploads/temporary/[Redacted]/file.png");
  });

  it("leaves URLs without secrets as they were, malformed ones included", () => {
    for (const url of ["/api/v1/messages?anchor=newest&num_before=20", "/api/v1/users/me", "/api/v1/x?%E0%A4%A=1&password", "/user_uploads/2/ab/file.png"]) {
      assert.equal(redactUrl(url), url);
    }
  });
});

describe("constantTimeEqual", () => {
  it("is true only for identical strings, whatever the lengths", () => {
    assert.equal(constantTimeEqual("a".repeat(32), "a".repeat(32)), true);
    assert.equal(constantTimeEqual("a".repeat(32), `${"a".repeat(31)}b`), false);
    assert.equal(constantTimeEqual("a".repeat(32), "a".repeat(31)), false);
    assert.equal(constantTimeEqual("", ""), true);
  });
});

for (const kind of STORE_KINDS) {
  describe(`secrets stay out of the logs [${kind}]`, () => {
    let t: TestRealm;
    let app: Awaited<ReturnType<typeof buildApp>>;
    const log = logCapture();
    before(async () => {
      t = await createTestRealm(kind);
      app = await buildApp(t.deps, { logger: { level: "info", stream: log.stream } });
    });
    after(async () => {
      await app.close();
      await t.close();
    });

    it("logs failed logins and failed authentications without the password, key or Authorization header", async () => {
      log.lines.length = 0;
      const host = t.host;
      const form = { "content-type": "application/x-www-form-urlencoded", host };
      const wrongPassword = "wrong-Secret-Passw0rd";
      const login = await app.inject({ method: "POST", url: "/api/v1/fetch_api_key", headers: form, payload: `username=iago%40zulip.test&password=${wrongPassword}` });
      assert.equal(login.statusCode, 401);
      const inQuery = await app.inject({ method: "POST", url: `/api/v1/fetch_api_key?username=iago%40zulip.test&password=${encodeURIComponent(PASSWORD)}x`, headers: { host } });
      assert.equal(inQuery.statusCode, 401);
      const wrongKey = "Z".repeat(32);
      const authorization = "Basic " + Buffer.from(`iago@zulip.test:${wrongKey}`).toString("base64");
      const badKey = await app.inject({ method: "GET", url: `/api/v1/users/me?api_key=${t.users.hamlet.apiKey}`, headers: { host, authorization } });
      assert.equal(badKey.statusCode, 401);
      const realAuthorization = "Basic " + Buffer.from(`iago@zulip.test:${t.users.iago.apiKey}`).toString("base64");
      const badParam = await app.inject({ method: "GET", url: "/api/v1/messages/not-a-number", headers: { host, authorization: realAuthorization } });
      assert.equal(badParam.statusCode, 404);

      const all = log.lines.join("\n");
      const requests = log.lines.map((line) => JSON.parse(line)).filter((e) => e.msg === "request");
      assert.equal(requests.length, 4, `one access log line per request (issue 18): ${all}`);
      for (const secret of [wrongPassword, encodeURIComponent(PASSWORD), wrongKey, t.users.hamlet.apiKey, t.users.iago.apiKey, authorization.slice(6), realAuthorization.slice(6)]) {
        assert.equal(all.includes(secret), false, `${secret} leaked: ${all}`);
      }
      assert.ok(requests.some((e) => e.url.includes("password=[Redacted]")));
      assert.ok(requests.some((e) => e.url.includes("api_key=[Redacted]")));
      for (const e of requests) assert.match(e.reqId, UUID);
    });
  });
}
