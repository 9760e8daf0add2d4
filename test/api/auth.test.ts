/** Authentication failures (zulip-facts section h) and credential endpoints (spec 4.10, 4.14). */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SignJWT } from "jose";
import { createTestRealm, PASSWORD, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { transaction } from "../../src/store/db.js";
import { updateRealm } from "../../src/store/realms.js";
import { updateUser } from "../../src/store/users.js";

const JWT_KEY = "a-test-secret-of-sufficient-length-123456";

function basic(email: string, key: string): string {
  return "Basic " + Buffer.from(`${email}:${key}`).toString("base64");
}

function assertUnauthorized(res: { status: number; body: Record<string, unknown>; headers: Record<string, unknown> }, msg: string) {
  assert.equal(res.status, 401, JSON.stringify(res.body));
  assert.deepEqual(res.body, { result: "error", msg, code: "UNAUTHORIZED" });
  assert.equal(res.headers["www-authenticate"], 'Basic realm="zulip"');
}

for (const kind of STORE_KINDS) {
  describe(`authentication [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind, { jwtAuthKeys: { zulip: { key: JWT_KEY, algorithms: ["HS256"] } } });
    });
    after(() => t.close());

    it("accepts a valid email:api_key", async () => {
      const res = await t.as("hamlet").get("/users/me");
      assert.equal(res.status, 200);
      assert.equal(res.body.result, "success");
      assert.equal(res.body.msg, "");
      assert.equal(res.body.user_id, t.users.hamlet.id);
      assert.equal(res.body.email, "hamlet@zulip.test");
      assert.equal(res.body.full_name, "King Hamlet");
      assert.equal(res.body.role, 400);
      assert.equal(res.body.is_admin, false);
      assert.equal(res.body.max_message_id, -1);
      assert.deepEqual(res.body.profile_data, {});
    });

    it("compares the email case-insensitively", async () => {
      const res = await t.as(null, { authorization: basic("HAMLET@Zulip.Test", t.users.hamlet.apiKey) }).get("/users/me");
      assert.equal(res.status, 200);
    });

    it("rejects a request without credentials", async () => {
      assertUnauthorized(await t.as(null).get("/users/me"), "Not logged in: API authentication or user session required");
    });

    it("rejects a non-Basic scheme with 400", async () => {
      const res = await t.as(null, { authorization: "Bearer abc" }).get("/users/me");
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { result: "error", msg: "This endpoint requires HTTP basic authentication.", code: "BAD_REQUEST" });
    });

    it("rejects an undecodable header", async () => {
      assertUnauthorized(await t.as(null, { authorization: "Basic !!!" }).get("/users/me"), "Invalid authorization header for basic auth");
      assertUnauthorized(
        await t.as(null, { authorization: "Basic " + Buffer.from("no-colon").toString("base64") }).get("/users/me"),
        "Invalid authorization header for basic auth",
      );
    });

    it("rejects a malformed key", async () => {
      assertUnauthorized(await t.as(null, { authorization: basic("hamlet@zulip.test", "short") }).get("/users/me"), "Malformed API key");
    });

    it("rejects an unknown key, and a key with the wrong email", async () => {
      assertUnauthorized(
        await t.as(null, { authorization: basic("hamlet@zulip.test", "a".repeat(32)) }).get("/users/me"),
        "Invalid API key",
      );
      assertUnauthorized(
        await t.as(null, { authorization: basic("othello@zulip.test", t.users.hamlet.apiKey) }).get("/users/me"),
        "Invalid API key",
      );
    });

    it("rejects a key on another realm's host", async () => {
      assertUnauthorized(
        await t.as("hamlet", { host: "other.testserver.local:9991" }).get("/users/me"),
        "Account is not associated with this subdomain",
      );
      assertUnauthorized(await t.as("hamlet", { host: "testserver.local:9991" }).get("/users/me"), "Account is not associated with this subdomain");
    });

    it("rejects a deactivated user, then a deactivated realm", async () => {
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.polonius.id, { is_active: false }));
      assertUnauthorized(await t.as("polonius").get("/users/me"), "Account is deactivated");
      const login = await t.as(null).post("/fetch_api_key", { username: "polonius@zulip.test", password: PASSWORD });
      assert.equal(login.status, 401);
      assert.equal(login.body.code, "USER_DEACTIVATED");
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.polonius.id, { is_active: true }));
    });

    it("fetch_api_key returns the key for good credentials", async () => {
      const res = await t.as(null).post("/fetch_api_key", { username: "iago@zulip.test", password: PASSWORD });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { result: "success", msg: "", api_key: t.users.iago.apiKey, email: "iago@zulip.test", user_id: t.users.iago.id });
    });

    it("fetch_api_key rejects a wrong password, an unknown email and missing arguments", async () => {
      for (const [username, password] of [["iago@zulip.test", "wrong"], ["nobody@zulip.test", PASSWORD]]) {
        const res = await t.as(null).post("/fetch_api_key", { username, password });
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, { result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
      }
      const missing = await t.as(null).post("/fetch_api_key", { username: "iago@zulip.test" });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, { result: "error", msg: "Missing 'password' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "password" });
    });

    it("fetch_api_key on a host with no realm is NONEXISTENT_SUBDOMAIN", async () => {
      const res = await t.as(null, { host: "nope.testserver.local:9991" }).post("/fetch_api_key", { username: "iago@zulip.test", password: PASSWORD });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, "NONEXISTENT_SUBDOMAIN");
    });

    it("jwt/fetch_api_key accepts a signed token and can include the profile", async () => {
      const token = await new SignJWT({ email: "othello@zulip.test" }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(JWT_KEY));
      const plain = await t.as(null).post("/jwt/fetch_api_key", { token });
      assert.equal(plain.status, 200);
      assert.equal(plain.body.api_key, t.users.othello.apiKey);
      assert.equal(plain.body.user, undefined);
      const withProfile = await t.as(null).post("/jwt/fetch_api_key", { token, include_profile: true });
      assert.equal(withProfile.body.user.user_id, t.users.othello.id);
      assert.equal(withProfile.body.user.full_name, "Othello, the Moor of Venice");
      assert.equal(withProfile.body.user.profile_data, undefined);
    });

    it("jwt/fetch_api_key rejects bad signatures, missing email and unknown users", async () => {
      const sign = (payload: Record<string, unknown>, key = JWT_KEY) =>
        new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(key));
      const bad = await t.as(null).post("/jwt/fetch_api_key", { token: await sign({ email: "othello@zulip.test" }, "another-key-of-sufficient-length-0000") });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.msg, "Bad JSON web token");
      const noEmail = await t.as(null).post("/jwt/fetch_api_key", { token: await sign({ sub: "x" }) });
      assert.equal(noEmail.body.msg, "No email specified in JSON web token payload");
      const unknown = await t.as(null).post("/jwt/fetch_api_key", { token: await sign({ email: "ghost@zulip.test" }) });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.code, "AUTHENTICATION_FAILED");
      const garbage = await t.as(null).post("/jwt/fetch_api_key", { token: "not.a.jwt" });
      assert.equal(garbage.body.msg, "Bad JSON web token");
    });

    it("jwt/fetch_api_key is refused where no key is configured", async () => {
      const res = await t.as(null, { host: "testserver.local:9991" }).post("/jwt/fetch_api_key", { token: "x" });
      assert.equal(res.status, 404); // no root realm in this fixture
    });

    it("regenerating the API key retires the old one", async () => {
      const old = t.users.cordelia.apiKey;
      const res = await t.as("cordelia").post("/users/me/api_key/regenerate");
      assert.equal(res.status, 200);
      assert.match(res.body.api_key, /^[A-Za-z0-9]{32}$/);
      assert.notEqual(res.body.api_key, old);
      assertUnauthorized(await t.as("cordelia").get("/users/me"), "Invalid API key");
      t.users.cordelia.apiKey = res.body.api_key;
      assert.equal((await t.as("cordelia").get("/users/me")).status, 200);
    });

    it("reports a deactivated realm last", async () => {
      await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, { deactivated: true }));
      assertUnauthorized(await t.as("hamlet").get("/users/me"), "This organization has been deactivated");
      const login = await t.as(null).post("/fetch_api_key", { username: "iago@zulip.test", password: PASSWORD });
      assert.equal(login.status, 401);
      assert.equal(login.body.code, "REALM_DEACTIVATED");
      await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, { deactivated: false }));
    });
  });
}
