/** Rate limits (zulip-facts section c): api_by_user, api_by_ip, authenticate_by_username. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, formEncode, PASSWORD, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { checkRate, MemoryRateCounter, RedisRateCounter, reserveAttempt } from "../../src/lib/rate-limiter.js";
import { newRedisClient, redisNamespace } from "../../src/lib/redis-keys.js";
import { loadConfig, testStoreUrls } from "../../src/config.js";

describe("rate limiting", () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite", { rateLimiting: true });
  });
  after(() => t.close());

  it("limits a user to 200 requests a minute, with Zulip's headers and 429 body", async () => {
    let last;
    for (let i = 0; i < 200; i++) {
      last = await t.as("hamlet").get("/users/me");
      assert.equal(last.status, 200);
    }
    assert.equal(last!.headers["x-ratelimit-limit"], "200");
    assert.equal(last!.headers["x-ratelimit-remaining"], "0");
    const refused = await t.as("hamlet").get("/users/me");
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, "RATE_LIMIT_HIT");
    assert.equal(refused.body.result, "error");
    assert.equal(typeof refused.body["retry-after"], "number");
    assert.ok(Number(refused.headers["retry-after"]) >= 1);
    // Another user is unaffected; a new window allows the first again.
    assert.equal((await t.as("othello").get("/users/me")).status, 200);
    t.clock.seconds += 60;
    assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
  });

  it("limits unauthenticated calls per address", async () => {
    t.clock.seconds += 3600;
    let status = 0;
    for (let i = 0; i < 101; i++) status = (await t.as(null).get("/server_settings")).status;
    assert.equal(status, 429);
  });

  it("counts the connection's address, not a client's X-Forwarded-For, unless the proxy is trusted (issue 16, F7)", async () => {
    t.clock.seconds += 3600;
    const spoofed = async (realm: TestRealm, i: number) =>
      (await realm.app.inject({ method: "GET", url: "/api/v1/server_settings", headers: { host: realm.host, "x-forwarded-for": `203.0.113.${i % 250}, 10.0.0.${i % 250}` } })).statusCode;
    const statuses = [];
    for (let i = 0; i < 101; i++) statuses.push(await spoofed(t, i));
    assert.equal(statuses.at(-1), 429, "a spoofed header does not make a new address");
    const behindProxy = await createTestRealm("sqlite", { rateLimiting: true, trustedProxies: ["loopback"] });
    try {
      const trusted = [];
      for (let i = 0; i < 101; i++) trusted.push(await spoofed(behindProxy, i % 2 === 0 ? i : 1_000 + i));
      assert.deepEqual(new Set(trusted), new Set([200]), "a trusted proxy's header names the client");
    } finally {
      await behindProxy.close();
    }
  });

  it("reads TRUSTED_PROXIES as addresses, ranges or proxy-addr's names, and names the setting when wrong", () => {
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.deepEqual(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, loopback,::1, fd00::/8" }).trustedProxies, ["10.0.0.0/8", "loopback", "::1", "fd00::/8"]);
    for (const bad of ["nginx", "10.0.0.0/33", "10.0.0.1/8/2", "::1/129"]) {
      assert.throws(() => loadConfig({ TRUSTED_PROXIES: bad }), new RegExp(`^Error: TRUSTED_PROXIES: "${bad.replace(/[/.]/g, "\\$&")}" is not an IP address`));
    }
  });

  it("locks a username after 5 failed logins in 30 minutes, even for the right password", async () => {
    t.clock.seconds += 3600;
    for (let i = 0; i < 5; i++) {
      const res = await t.as(null).post("/fetch_api_key", { username: "cordelia@zulip.test", password: "wrong" });
      assert.equal(res.status, 401);
      t.clock.seconds += 1;
    }
    // (the per-IP limit is separate; move to a fresh minute window)
    t.clock.seconds += 60;
    const locked = await t.as(null).post("/fetch_api_key", { username: "cordelia@zulip.test", password: PASSWORD });
    assert.equal(locked.status, 429);
    t.clock.seconds += 1800;
    const ok = await t.as(null).post("/fetch_api_key", { username: "cordelia@zulip.test", password: PASSWORD });
    assert.equal(ok.status, 200);
  });

  it("counts concurrent failed logins before checking them, a correct password included (issue 16, F9)", async () => {
    t.clock.seconds += 3600;
    const attempt = (password: string, i: number) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/fetch_api_key",
        // A different address each, as a botnet would: only the per-account budget stands.
        headers: { host: t.host, "content-type": "application/x-www-form-urlencoded" },
        payload: formEncode({ username: "othello@zulip.test", password }),
        remoteAddress: `198.51.100.${i}`,
      });
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(i === 30 ? PASSWORD : "wrong", i)));
    const statuses = burst.map((r) => r.statusCode);
    assert.ok(statuses.filter((s) => s === 401).length <= 5, `${statuses.filter((s) => s === 401).length} wrong passwords were checked`);
    assert.equal(statuses.filter((s) => s === 429).length >= 34, true, statuses.join(" "));
    assert.equal(statuses[30], 429, "the correct password came after five failures had been counted");
  });

  it("applies the tightest of several windows", async () => {
    const counter = new MemoryRateCounter();
    const rules = [{ windowSeconds: 60, max: 3 }, { windowSeconds: 3600, max: 4 }];
    const now = 7200;
    for (let i = 0; i < 3; i++) assert.ok((await checkRate(counter, "k", rules, now)).allowed);
    assert.equal((await checkRate(counter, "k", rules, now)).allowed, false);
    assert.ok((await checkRate(counter, "k", rules, now + 60)).allowed === false, "hour window already spent");
    counter.sweep(now + 7200);
    assert.ok((await checkRate(counter, "k", rules, now + 7200)).allowed);
  });
});

for (const kind of STORE_KINDS) {
  describe(`failed logins are counted per account, however the address is spelled [${kind}] (issue 16, F10)`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind, { rateLimiting: true });
    });
    after(() => t.close());

    it("shares one budget between every spelling the lookup accepts", async () => {
      const spellings = ["cordelia@zulip.test", "CORDELIA@zulip.test", "Cordelia@Zulip.Test", " cordelia@ZULIP.TEST", "cOrDeLiA@zUlIp.TeSt"];
      for (const username of spellings) {
        const res = await t.as(null, { host: t.host }).post("/fetch_api_key", { username, password: "wrong" });
        assert.equal(res.status, 401, username);
      }
      const sixth = await t.as(null).post("/fetch_api_key", { username: "CoRdElIa@zulip.test", password: PASSWORD });
      assert.equal(sixth.status, 429);
    });
  });
}

describe("the Redis counter reserves and releases like the memory one", { skip: testStoreUrls().redis ? false : "REDIS_URL is not set" }, () => {
  it("counts, releases within the window, and never leaves a key behind a window that ended", async () => {
    const redis = newRedisClient(testStoreUrls().redis!, { maxRetriesPerRequest: 2 });
    const namespace = redisNamespace(`test-${process.pid}-${Date.now()}`);
    try {
      const counters = [new MemoryRateCounter(), new RedisRateCounter(redis, namespace)];
      const rules = [{ windowSeconds: 60, max: 2 }];
      for (const counter of counters) {
        const now = 6_000;
        const decisions = [];
        for (let i = 0; i < 3; i++) decisions.push((await reserveAttempt(counter, "k", rules, now)).allowed);
        assert.deepEqual(decisions, [true, true, false], counter.constructor.name);
        await counter.release("k", rules, now);
        assert.equal((await reserveAttempt(counter, "k", rules, now)).allowed, true, counter.constructor.name);
        // A release for a window nobody hit creates nothing.
        await counter.release("k", rules, now + 60);
        assert.deepEqual(await counter.hit("k", rules, now + 60, false), [{ count: 0, reset: now + 120 }]);
      }
      assert.deepEqual(await redis.keys(`${namespace}*`).then((keys) => keys.length), 1);
    } finally {
      const keys = await redis.keys(`${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
