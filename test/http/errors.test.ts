/**
 * Error responses of the HTTP layer (zulip-facts sections e and h): unknown endpoints, wrong
 * methods, crashes, oversized bodies, thrown ApiErrors with extra fields and headers, and the role
 * and bot gates checked before a handler runs.
 */
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { checkCreateUser } from "../../src/actions/users/users.js";
import { buildApp } from "../../src/app.js";
import { rateLimited } from "../../src/errors.js";
import { endpoint } from "../../src/http/endpoint.js";
import { p } from "../../src/http/params.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import { createTestRealm, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { buildEndpointApp, send, type EchoApp } from "../helpers/http.js";
import { STORE_KINDS } from "../helpers/stores.js";

const ok = { params: {}, async handler() { return { ok: true }; } };

const TEST_ENDPOINTS = [
  endpoint({ method: "GET", path: "/thing", auth: "none", ...ok }),
  endpoint({ method: "PATCH", path: "/thing", auth: "none", ...ok }),
  endpoint({ method: "POST", path: "/sink", auth: "none", params: { data: p.str().optional() }, async handler() { return {}; } }),
  endpoint({ method: "GET", path: "/boom", auth: "none", params: {}, async handler(): Promise<void> { throw new Error("kaboom"); } }),
  endpoint({ method: "GET", path: "/slow-down", auth: "none", params: {}, async handler(): Promise<void> { throw rateLimited(2.5); } }),
  endpoint({ method: "GET", path: "/member-only", auth: "user", params: { x: p.int() }, async handler() { return { ok: true }; } }),
  endpoint({ method: "GET", path: "/admin-only", auth: "admin", ...ok }),
  endpoint({ method: "GET", path: "/owner-only", auth: "owner", ...ok }),
  endpoint({ method: "POST", path: "/webhook-ok", auth: "user", allowWebhookBots: true, ...ok }),
];

const BODY_LIMIT = 4096;

describe("HTTP error responses", () => {
  let h: EchoApp;
  const logLines: string[] = [];
  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    h = await buildEndpointApp(TEST_ENDPOINTS, { logger: { level: "error", stream }, bodyLimit: BODY_LIMIT });
  });
  after(() => h.close());

  it("answers an unknown endpoint 404 in Zulip's envelope", async () => {
    for (const url of ["/api/v1/no/such/thing", "/elsewhere"]) {
      const res = await h.app.inject({ method: "GET", url });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), { result: "error", msg: "Not Found", code: "BAD_REQUEST" });
    }
  });

  it("answers a known path with a wrong method 405, listing the allowed methods (no code)", async () => {
    for (const method of ["POST", "PUT", "DELETE"] as const) {
      const res = await send(h.app, method, "/thing");
      assert.equal(res.status, 405, method);
      assert.deepEqual(res.body, { result: "error", msg: "Method Not Allowed", allowed_methods: ["GET", "PATCH"] });
      assert.equal(res.headers.allow, "GET, PATCH");
    }
  });

  it("answers an unexpected exception 500 and logs it with the request id", async () => {
    logLines.length = 0;
    const res = await h.app.inject({ method: "GET", url: "/api/v1/boom" });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { result: "error", msg: "Internal server error", code: "BAD_REQUEST" });
    assert.equal(res.body.includes("kaboom"), false, "the exception stays out of the response");
    const entries = logLines.map((line) => JSON.parse(line));
    const entry = entries.find((e) => e.msg === "unhandled error");
    assert.ok(entry, `logged: ${logLines.join("")}`);
    assert.match(entry.reqId, /^[0-9a-f-]{36}$/);
    assert.equal(entry.err.message, "kaboom");
    assert.match(entry.err.stack, /kaboom/);
  });

  it("answers a body over the limit 413 in Zulip's envelope", async () => {
    const res = await send(h.app, "POST", "/sink", { form: { data: "x".repeat(BODY_LIMIT + 1) } });
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, { result: "error", msg: "Request body is too large", code: "BAD_REQUEST" });
    const fits = await send(h.app, "POST", "/sink", { form: { data: "x".repeat(BODY_LIMIT - 100) } });
    assert.equal(fits.status, 200);
  });

  it("sends an ApiError's status, extra fields and headers", async () => {
    const res = await send(h.app, "GET", "/slow-down");
    assert.equal(res.status, 429);
    assert.deepEqual(res.body, { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 2.5 });
    assert.equal(res.headers["retry-after"], "3");
  });

  it("checks credentials before parameters", async () => {
    const res = await send(h.app, "GET", "/member-only");
    assert.equal(res.status, 401);
    assert.equal(res.body.code, "UNAUTHORIZED");
  });
});

for (const kind of STORE_KINDS) {
  describe(`role and bot gates [${kind}]`, () => {
    let t: TestRealm;
    let gated: Awaited<ReturnType<typeof buildApp>>;
    let webhookBot: TestUser;
    before(async () => {
      t = await createTestRealm(kind);
      gated = await buildApp(t.deps, { logger: false, endpoints: TEST_ENDPOINTS });
      const realm = (await getRealmById(readTx(t.deps.store), t.realmId))!;
      const created = await transaction(t.deps.store, (tx) =>
        checkCreateUser(
          tx,
          realm,
          { email: "hook-bot@zulip.test", fullName: "Hook", password: null, botType: 2, botOwnerId: t.users.hamlet.id },
          t.clock.now(),
        ),
      );
      webhookBot = { id: created.userId, email: created.email, apiKey: created.apiKey, fullName: "Hook", role: 400 };
    });
    after(async () => {
      await gated.close();
      await t.close();
    });
    const get = (path: string, user: TestUser, query?: Record<string, unknown>) =>
      send(gated, "GET", path, { user, query, headers: { host: t.host } });

    it("lets administrators and owners through an admin gate, and refuses others", async () => {
      for (const name of ["desdemona", "iago"] as const) assert.equal((await get("/admin-only", t.users[name])).status, 200, name);
      for (const name of ["shiva", "hamlet", "polonius", "bot"] as const) {
        const res = await get("/admin-only", t.users[name]);
        assert.equal(res.status, 400, name);
        assert.deepEqual(res.body, { result: "error", msg: "Must be an organization administrator", code: "UNAUTHORIZED_PRINCIPAL" });
      }
    });

    it("lets only owners through an owner gate", async () => {
      assert.equal((await get("/owner-only", t.users.desdemona)).status, 200);
      const res = await get("/owner-only", t.users.iago);
      assert.deepEqual(res.body, { result: "error", msg: "Must be an organization owner", code: "UNAUTHORIZED_PRINCIPAL" });
    });

    it("refuses incoming-webhook bots on normal endpoints, but not on webhook-friendly ones", async () => {
      for (const path of ["/member-only", "/admin-only"]) {
        const res = await get(path, webhookBot, { x: 1 });
        assert.equal(res.status, 400, path);
        assert.deepEqual(res.body, { result: "error", msg: "This API is not available to incoming webhook bots.", code: "BAD_REQUEST" });
      }
      const real = await send(t.app, "GET", "/users/me", { user: webhookBot, headers: { host: t.host } });
      assert.equal(real.body.msg, "This API is not available to incoming webhook bots.");
      const allowed = await send(gated, "POST", "/webhook-ok", { user: webhookBot, headers: { host: t.host } });
      assert.equal(allowed.status, 200);
      assert.equal((await get("/member-only", t.users.bot, { x: 1 })).status, 200, "a generic bot is a normal API user");
    });
  });
}
