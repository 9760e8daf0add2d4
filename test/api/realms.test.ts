/**
 * Realm selection by Host (zulip-facts section h), `GET /server_settings` and `POST /users`, with
 * two organizations on one store: the fixture's "zulip" subdomain and the root domain (subdomain "").
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { ZULIP_FEATURE_LEVEL } from "../../src/version.js";
import { createTestRealm, EXTERNAL_HOST, grantCanCreateUsers, PASSWORD, type ApiResponse, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const ROOT_HOST = EXTERNAL_HOST;
const JWT_KEY = "a-test-secret-of-sufficient-length-123456";

function assertError(res: ApiResponse, status: number, msg: string, code = "BAD_REQUEST") {
  assert.equal(res.status, status, JSON.stringify(res.body));
  // A missing parameter is named in var_name (Zulip's MissingArgumentError).
  const varName = code === "REQUEST_VARIABLE_MISSING" ? { var_name: /'(.*)'/.exec(msg)?.[1] } : {};
  assert.deepEqual(res.body, { result: "error", msg, code, ...varName });
}

for (const kind of STORE_KINDS) {
  describe(`realms by host [${kind}]`, () => {
    let t: TestRealm;
    let rootOwner: TestUser;
    before(async () => {
      t = await createTestRealm(kind, { jwtAuthKeys: { zulip: { key: JWT_KEY, algorithms: ["HS256"] } } });
      const { owner } = await checkCreateRealm(
        t.deps.store,
        { subdomain: "", name: "Root Org", ownerEmail: "root@example.test", ownerName: "Root Owner", ownerPassword: PASSWORD },
        t.clock.now(),
      );
      rootOwner = { id: owner.userId, email: owner.email, apiKey: owner.apiKey, fullName: "Root Owner", role: 100 };
      await grantCanCreateUsers(t.deps.store, owner.userId);
    });
    after(() => t.close());

    it("serves each realm's users on its own host only", async () => {
      assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
      const root = await t.as(rootOwner, { host: ROOT_HOST }).get("/users/me");
      assert.equal(root.status, 200);
      assert.equal(root.body.user_id, rootOwner.id);
      for (const [user, host] of [[t.users.hamlet, ROOT_HOST], [rootOwner, t.host]] as const) {
        const res = await t.as(user, { host }).get("/users/me");
        assertError(res, 401, "Account is not associated with this subdomain", "UNAUTHORIZED");
        assert.equal(res.headers["www-authenticate"], 'Basic realm="zulip"');
      }
    });

    it("maps www. and unknown hosts to the root realm, ignoring case and port", async () => {
      for (const host of [`www.${ROOT_HOST}`, "WWW.TESTSERVER.LOCAL", "chat.example.org", "127.0.0.1:9991"]) {
        const res = await t.as(rootOwner, { host }).get("/users/me");
        assert.equal(res.status, 200, host);
        assert.equal((await t.as("hamlet", { host }).get("/users/me")).status, 401, host);
      }
      assert.equal((await t.as("hamlet", { host: "ZULIP.testserver.local" }).get("/users/me")).status, 200);
    });

    it("GET /server_settings describes the realm of each host, without auth", async () => {
      const sub = await t.as(null).get("/server_settings");
      assert.equal(sub.status, 200);
      assert.equal(sub.body.result, "success");
      assert.equal(sub.body.realm_url, `https://zulip.${EXTERNAL_HOST}`);
      assert.equal(sub.body.realm_uri, sub.body.realm_url);
      assert.equal(sub.body.realm_name, "Zulip Dev");
      assert.equal(sub.body.zulip_feature_level, ZULIP_FEATURE_LEVEL);
      assert.equal(typeof sub.body.zulip_version, "string");
      assert.equal(sub.body.authentication_methods.password, true);
      // JWT login is no authentication method of the realm in Zulip's answer (OpenAPI get-server-settings).
      assert.equal("jwt" in sub.body.authentication_methods, false);

      const root = await t.as(null, { host: ROOT_HOST }).get("/server_settings");
      assert.equal(root.status, 200);
      assert.equal(root.body.realm_url, `https://${EXTERNAL_HOST}`);
      assert.equal(root.body.realm_name, "Root Org");
      assert.equal(root.body.zulip_feature_level, ZULIP_FEATURE_LEVEL);
    });

    it("GET /server_settings on a subdomain with no realm still answers, without realm fields", async () => {
      const res = await t.as(null, { host: `nowhere.${EXTERNAL_HOST}` }).get("/server_settings");
      assert.equal(res.status, 200);
      assert.equal(res.body.result, "success");
      assert.equal(res.body.zulip_feature_level, ZULIP_FEATURE_LEVEL);
      assert.equal(typeof res.body.authentication_methods, "object");
      for (const field of ["realm_url", "realm_uri", "realm_name", "realm_icon", "realm_description"]) {
        assert.equal(field in res.body, false, field);
      }
    });

    it("POST /users as an administrator creates an account that can then log in", async () => {
      const res = await t.as("iago").post("/users", { email: "newbie@zulip.test", password: "s3cret-pass", full_name: "  New Bie  " });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof res.body.user_id, "number");
      const login = await t.as(null).post("/fetch_api_key", { username: "newbie@zulip.test", password: "s3cret-pass" });
      assert.equal(login.status, 200);
      assert.equal(login.body.user_id, res.body.user_id);
      const me = await t.as({ id: res.body.user_id, email: "newbie@zulip.test", apiKey: login.body.api_key, fullName: "", role: 400 }).get("/users/me");
      assert.equal(me.body.full_name, "New Bie");
      assert.equal(me.body.role, 400);
      // The account belongs to the "zulip" realm only.
      const elsewhere = await t.as(null, { host: ROOT_HOST }).post("/fetch_api_key", { username: "newbie@zulip.test", password: "s3cret-pass" });
      assert.equal(elsewhere.status, 401);
    });

    it("POST /users is refused to members, moderators and guests", async () => {
      for (const name of ["hamlet", "shiva", "polonius"] as const) {
        const res = await t.as(name).post("/users", { email: `by-${name}@zulip.test`, password: "pw", full_name: "X" });
        assertError(res, 400, "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      }
    });

    it("POST /users rejects a duplicate email, case-insensitively, within the realm only", async () => {
      assertError(await t.as("iago").post("/users", { email: "hamlet@zulip.test", password: "pw", full_name: "H" }), 400, "Email 'hamlet@zulip.test' already in use");
      assertError(await t.as("iago").post("/users", { email: "HAMLET@Zulip.test", password: "pw", full_name: "H" }), 400, "Email 'HAMLET@Zulip.test' already in use");
      const other = await t.as(rootOwner, { host: ROOT_HOST }).post("/users", { email: "hamlet@zulip.test", password: "pw", full_name: "Root Hamlet" });
      assert.equal(other.status, 200, "the same email may exist in another realm");
    });

    it("POST /users validates the email and the full name", async () => {
      const post = (params: Record<string, string>) => t.as("iago").post("/users", { password: "pw", ...params });
      assertError(await post({ email: "not-an-email", full_name: "X" }), 400, "Invalid email address 'not-an-email'");
      assertError(await post({ email: "a b@zulip.test", full_name: "X" }), 400, "Invalid email address 'a b@zulip.test'");
      assertError(await post({ email: "empty@zulip.test", full_name: "   " }), 400, "Name too short!");
      assertError(await post({ email: "long@zulip.test", full_name: "n".repeat(101) }), 400, "Name too long!");
      assert.equal((await post({ email: "exact@zulip.test", full_name: "n".repeat(100) })).status, 200);
    });

    it("POST /users reports missing parameters", async () => {
      assertError(await t.as("iago").post("/users", { password: "pw", full_name: "X" }), 400, "Missing 'email' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await t.as("iago").post("/users", { email: "m@zulip.test", password: "pw" }), 400, "Missing 'full_name' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await t.as("iago").post("/users", { email: "m@zulip.test", full_name: "M" }), 400, "Missing 'password' argument", "REQUEST_VARIABLE_MISSING");
    });
  });
}
