/**
 * Web sessions (issue 7; spec section 5.3): `POST /accounts/login/` and `/accounts/logout/`, the
 * `sessionid` cookie's attributes, the cookie as credentials for `/user_uploads/…`, and every way a
 * session ends (logout, expiry, password or API-key change, deactivation of the user or realm).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SESSION_SECONDS } from "../../src/actions/auth/sessions.js";
import { MemoryRateCounter } from "../../src/lib/rate-limiter.js";
import { readTx, transaction } from "../../src/store/db.js";
import { updateRealm } from "../../src/store/realms.js";
import { formEncode, PASSWORD, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, uploadFile, type UploadRealm } from "../helpers/uploads.js";

interface LoginAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  cookie: string | undefined;
  token: string | undefined;
}

const setCookieOf = (headers: Record<string, unknown>) => {
  const value = headers["set-cookie"];
  return Array.isArray(value) ? String(value[0]) : (value as string | undefined);
};

async function login(t: UploadRealm, params: Record<string, string>, headers: Record<string, string> = {}): Promise<LoginAnswer> {
  const res = await t.app.inject({
    method: "POST",
    url: "/accounts/login/",
    headers: { host: t.host, "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: formEncode(params),
  });
  const cookie = setCookieOf(res.headers);
  return { status: res.statusCode, body: res.json(), cookie, token: /^sessionid=([^;]*)/.exec(cookie ?? "")?.[1] };
}

const loginAs = async (t: UploadRealm, who: UserName, headers: Record<string, string> = {}) => {
  const answer = await login(t, { username: `${who}@zulip.test`, password: PASSWORD }, headers);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.token as string;
};

const withCookie = (token: string) => ({ cookie: `other=1; sessionid=${token}` });

for (const kind of STORE_KINDS) {
  describe(`web login and session cookies [${kind}]`, () => {
    let t: UploadRealm;
    let url: string;
    before(async () => {
      t = await createUploadRealm(kind);
      ({ url } = await uploadFile(t, "hamlet", "notes.txt", "hamlet's notes"));
    });
    after(() => t.close());

    it("logs in with email and password, answering the user and setting the cookie", async () => {
      const answer = await login(t, { username: "hamlet@zulip.test", password: PASSWORD });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { result: "success", msg: "", user_id: t.users.hamlet.id, email: "hamlet@zulip.test" });
      assert.match(answer.token ?? "", /^[A-Za-z0-9_-]{43}$/);
      assert.equal(answer.cookie, `sessionid=${answer.token}; Max-Age=${SESSION_SECONDS}; Path=/; HttpOnly; SameSite=Lax`);
      assert.equal(SESSION_SECONDS, 14 * 24 * 3600);
    });

    it("marks the cookie Secure over HTTPS, or as configured", async () => {
      const hamlet = { username: "hamlet@zulip.test", password: PASSWORD };
      // X-Forwarded-Proto counts only from a trusted proxy (TRUSTED_PROXIES).
      assert.doesNotMatch((await login(t, hamlet, { "x-forwarded-proto": "https" })).cookie ?? "", /Secure/);
      const behindProxy = await createUploadRealm(kind, { trustedProxies: ["loopback"] });
      try {
        assert.match((await login(behindProxy, hamlet, { "x-forwarded-proto": "https" })).cookie ?? "", /; Secure$/);
      } finally {
        await behindProxy.close();
      }
      const { config } = t.deps;
      try {
        config.sessionCookieSecure = true;
        assert.match((await login(t, hamlet)).cookie ?? "", /; Secure$/);
        config.sessionCookieSecure = false;
        assert.doesNotMatch((await login(t, hamlet, { "x-forwarded-proto": "https" })).cookie ?? "", /Secure/);
      } finally {
        config.sessionCookieSecure = null;
      }
    });

    it("refuses what fetch_api_key refuses, with its errors", async () => {
      const wrong = await login(t, { username: "hamlet@zulip.test", password: "nope" });
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.body, { result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
      assert.equal(wrong.cookie, undefined);
      const bot = await login(t, { username: "default-bot@zulip.test", password: PASSWORD });
      assert.equal(bot.body.code, "AUTHENTICATION_FAILED");
      const missing = await login(t, { username: "hamlet@zulip.test" });
      assert.deepEqual([missing.status, missing.body.msg, missing.body.code], [400, "Missing 'password' argument", "REQUEST_VARIABLE_MISSING"]);
      const res = await t.app.inject({
        method: "POST",
        url: "/accounts/login/",
        headers: { host: `nowhere.${t.host.split(".").slice(1).join(".")}`, "content-type": "application/x-www-form-urlencoded" },
        payload: formEncode({ username: "hamlet@zulip.test", password: PASSWORD }),
      });
      assert.deepEqual([res.statusCode, res.json().code], [404, "NONEXISTENT_SUBDOMAIN"]);
    });

    it("refuses a login posted from another origin (CSRF)", async () => {
      const foreign = await login(t, { username: "hamlet@zulip.test", password: PASSWORD }, { origin: "https://evil.example" });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.body.code, "CSRF_FAILED");
      assert.equal(foreign.cookie, undefined);
      const same = await login(t, { username: "hamlet@zulip.test", password: PASSWORD }, { origin: `http://${t.host}` });
      assert.equal(same.status, 200);
    });

    it("lets the cookie stand in for Basic auth when reading uploads, under the same access rules", async () => {
      const hamlet = await loginAs(t, "hamlet");
      const own = await fetchUrl(t, null, url, withCookie(hamlet));
      assert.deepEqual([own.status, own.body], [200, "hamlet's notes"]);
      const othello = await loginAs(t, "othello");
      const hidden = await fetchUrl(t, null, url, withCookie(othello));
      assert.deepEqual([hidden.status, hidden.json().msg], [404, "File not found"]);
      const anonymous = await fetchUrl(t, null, url);
      assert.equal(anonymous.status, 401);
      const forged = await fetchUrl(t, null, url, withCookie("A".repeat(43)));
      assert.deepEqual([forged.status, forged.json().code], [401, "UNAUTHORIZED"]);
      assert.equal(forged.headers["www-authenticate"], 'Session realm="zulip"', "no Basic dialog over a browser's <img>");
      assert.equal(anonymous.headers["www-authenticate"], 'Basic realm="zulip"');
    });

    it("hands the web client the cookie user's API key, to the same origin only (issue 20)", async () => {
      const token = await loginAs(t, "hamlet");
      const ask = (headers: Record<string, string>) => t.app.inject({ method: "POST", url: "/accounts/api_key/", headers: { host: t.host, ...headers } });
      const answer = await ask(withCookie(token));
      assert.equal(answer.statusCode, 200, answer.body);
      assert.deepEqual(answer.json(), { result: "success", msg: "", api_key: t.users.hamlet.apiKey, email: "hamlet@zulip.test", user_id: t.users.hamlet.id });
      assert.equal(answer.headers["cache-control"], "no-store");
      assert.equal((await ask({ ...withCookie(token), origin: "https://evil.example" })).statusCode, 403);
      assert.equal((await ask({})).statusCode, 401);
    });

    it("prefers an Authorization header to the cookie", async () => {
      const othello = await loginAs(t, "othello");
      const res = await fetchUrl(t, "hamlet", url, withCookie(othello));
      assert.equal(res.status, 200);
      const bad = await fetchUrl(t, null, url, { ...withCookie(await loginAs(t, "hamlet")), authorization: "Basic " + Buffer.from("hamlet@zulip.test:" + "x".repeat(32)).toString("base64") });
      assert.equal(bad.status, 401);
    });

    it("counts failed logins against authenticate_by_username", async () => {
      t.deps.rateLimiter = new MemoryRateCounter();
      try {
        for (let i = 0; i < 5; i++) assert.equal((await login(t, { username: "shiva@zulip.test", password: "wrong" })).status, 401);
        const refused = await login(t, { username: "shiva@zulip.test", password: PASSWORD });
        assert.deepEqual([refused.status, refused.body.code, refused.cookie], [429, "RATE_LIMIT_HIT", undefined]);
      } finally {
        t.deps.rateLimiter = null;
      }
    });

    it("authenticates the tus endpoint, refusing a cookie-authenticated request from another origin", async () => {
      const hamlet = await loginAs(t, "hamlet");
      const create = (headers: Record<string, string>) =>
        t.app.inject({
          method: "POST",
          url: "/api/v1/tus",
          headers: { host: t.host, "tus-resumable": "1.0.0", "upload-length": "5", "upload-metadata": `filename ${Buffer.from("a.txt").toString("base64")}`, ...headers },
        });
      const created = await create({ ...withCookie(hamlet), origin: `http://${t.host}` });
      assert.equal(created.statusCode, 201, created.body);
      const location = String(created.headers.location);
      const head = await t.app.inject({ method: "HEAD", url: location, headers: { host: t.host, "tus-resumable": "1.0.0", ...withCookie(hamlet) } });
      assert.equal(head.headers["upload-offset"], "0");
      const foreign = await create({ ...withCookie(hamlet), origin: "https://evil.example" });
      assert.deepEqual([foreign.statusCode, foreign.json().code], [403, "CSRF_FAILED"]);
      assert.equal((await create({})).statusCode, 401);
    });

    it("binds a session to its realm's host", async () => {
      const hamlet = await loginAs(t, "hamlet");
      const res = await t.app.inject({ method: "GET", url, headers: { host: t.host.replace(/^zulip\./, "other."), ...withCookie(hamlet) } });
      assert.equal(res.statusCode, 401);
    });

    it("logs out: the session ends and the cookie is cleared", async () => {
      const hamlet = await loginAs(t, "hamlet");
      const res = await t.app.inject({ method: "POST", url: "/accounts/logout/", headers: { host: t.host, ...withCookie(hamlet) } });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { result: "success", msg: "" });
      assert.equal(setCookieOf(res.headers), "sessionid=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
      assert.equal((await fetchUrl(t, null, url, withCookie(hamlet))).status, 401);
      const again = await t.app.inject({ method: "POST", url: "/accounts/logout/", headers: { host: t.host } });
      assert.equal(again.statusCode, 200, "logging out without a session is harmless");
    });

    it("keeps a user's 50 newest sessions", async () => {
      const oldest = await loginAs(t, "cordelia");
      t.clock.seconds += 1;
      try {
        const second = await loginAs(t, "cordelia");
        for (let i = 0; i < 49; i++) await loginAs(t, "cordelia");
        const rows = await readTx(t.deps.store).db.selectFrom("sessions").select("key").where("user_id", "=", t.users.cordelia.id).execute();
        assert.equal(rows.length, 50);
        const { url: own } = await uploadFile(t, "cordelia", "c.txt", "c");
        assert.equal((await fetchUrl(t, null, own, withCookie(oldest))).status, 401);
        assert.equal((await fetchUrl(t, null, own, withCookie(second))).status, 200);
      } finally {
        t.clock.seconds -= 1;
      }
    });

    it("expires a session after two weeks", async () => {
      const hamlet = await loginAs(t, "hamlet");
      t.clock.seconds += SESSION_SECONDS - 1;
      try {
        assert.equal((await fetchUrl(t, null, url, withCookie(hamlet))).status, 200);
        t.clock.seconds += 1;
        assert.equal((await fetchUrl(t, null, url, withCookie(hamlet))).status, 401);
      } finally {
        t.clock.seconds -= SESSION_SECONDS;
      }
    });
  });

  describe(`what ends every session of a user [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());
    /** A fresh session of the user and a file only they may read. */
    const sessionWithFile = async (who: UserName) => ({ token: await loginAs(t, who), url: (await uploadFile(t, who, "own.txt", "own")).url });
    const works = async ({ token, url }: { token: string; url: string }) => (await fetchUrl(t, null, url, withCookie(token))).status === 200;

    it("a password change", async () => {
      const hamlet = await sessionWithFile("hamlet");
      const res = await t.as("hamlet").patch("/settings", { old_password: PASSWORD, new_password: "a much better password" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await works(hamlet), false);
    });

    it("a new API key", async () => {
      const othello = await sessionWithFile("othello");
      const iago = await sessionWithFile("iago");
      assert.equal((await t.as("othello").post("/users/me/api_key/regenerate")).status, 200);
      assert.equal(await works(othello), false);
      assert.equal(await works(iago), true, "other users' sessions live on");
    });

    it("deactivation of the user, which also deletes the sessions", async () => {
      const cordelia = await sessionWithFile("cordelia");
      assert.equal((await t.as("iago").delete(`/users/${t.users.cordelia.id}`)).status, 200);
      assert.equal(await works(cordelia), false);
      const rows = await readTx(t.deps.store).db.selectFrom("sessions").select("key").where("user_id", "=", t.users.cordelia.id).execute();
      assert.deepEqual(rows, []);
    });

    it("deactivation of the realm", async () => {
      const iago = await sessionWithFile("iago");
      await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, { deactivated: true }));
      assert.equal(await works(iago), false);
    });
  });
}
