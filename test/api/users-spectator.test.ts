/**
 * GET /users without credentials (FL 387): a realm with public access (enable_spectator_access,
 * WEB_PUBLIC_STREAMS_ENABLED and a web-public channel: Zulip's allow_web_public_streams_access)
 * answers spectators with its users and no human's delivery_email; any other realm keeps the 401.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setRealm } from "../helpers/channels.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const NOT_LOGGED_IN = "Not logged in: API authentication or user session required";

for (const kind of STORE_KINDS) {
  describe(`GET /users for spectators [${kind}]`, () => {
    let t: TestRealm;
    let webPublicId = 0;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    const anonymous = () => t.as(null);

    it("refuses a realm without public access with Zulip's 401", async () => {
      const res = await anonymous().get("/users");
      assertError(res, NOT_LOGGED_IN, "UNAUTHORIZED", 401);
      assert.equal(res.headers["www-authenticate"], 'Basic realm="zulip"');
    });

    it("refuses while the realm allows spectators but has no web-public channel", async () => {
      await setRealm(t, { enable_spectator_access: true });
      assertError(await anonymous().get("/users"), NOT_LOGGED_IN, "UNAUTHORIZED", 401);
    });

    it("lists every user to a spectator once a web-public channel exists, without delivery_email", async () => {
      const created = await t.as("desdemona").post("/channels/create", { name: "open to all", subscribers: [], is_web_public: true });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      webPublicId = created.body.id;
      const res = await anonymous().get("/users", { client_gravatar: false });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const ids = res.body.members.map((m: { user_id: number }) => m.user_id).sort((a: number, b: number) => a - b);
      assert.deepEqual(ids, Object.values(t.users).map((u) => u.id).sort((a, b) => a - b));
      // Bots' addresses are public (their API email is the real one), as for every viewer.
      for (const m of res.body.members) assert.equal(m.delivery_email, m.is_bot ? m.email : null, JSON.stringify(m));
      const bot = res.body.members.find((m: { user_id: number }) => m.user_id === t.users.bot.id);
      assert.equal(bot.is_bot, true);
      assert.equal(bot.bot_owner_id, t.users.desdemona.id);
    });

    it("honours user_ids and include_custom_profile_fields for spectators", async () => {
      const some = await anonymous().get("/users", { user_ids: [t.users.othello.id, 99999], include_custom_profile_fields: true });
      assert.equal(some.status, 200, JSON.stringify(some.body));
      assert.deepEqual(some.body.members.map((m: { user_id: number }) => m.user_id), [t.users.othello.id]);
      assert.deepEqual(some.body.members[0].profile_data, {});
      assertError(await anonymous().get("/users", { user_ids: "[1, \"two\"]" }), "user_ids[1] is not an integer", "REQUEST_VARIABLE_INVALID");
    });

    it("still authenticates callers who send credentials, and refuses bad ones", async () => {
      const member = await t.as("hamlet").get("/users");
      assert.equal(member.status, 200);
      const own = member.body.members.find((m: { user_id: number }) => m.user_id === t.users.hamlet.id);
      assert.equal(own.delivery_email, "hamlet@zulip.test", "a logged-in user still sees their own address");
      const wrongKey = "Basic " + Buffer.from("hamlet@zulip.test:" + "x".repeat(32)).toString("base64");
      assertError(await t.as(null, { authorization: wrongKey }).get("/users"), "Invalid API key", "UNAUTHORIZED", 401);
      assertError(await t.as(null, { authorization: "Bearer abc" }).get("/users"), "This endpoint requires HTTP basic authentication.");
    });

    it("admits spectators to GET /users only: other user reads still need credentials", async () => {
      assertError(await anonymous().get(`/users/${t.users.hamlet.id}`), NOT_LOGGED_IN, "UNAUTHORIZED", 401);
      assertError(await anonymous().get("/users/me"), NOT_LOGGED_IN, "UNAUTHORIZED", 401);
    });

    it("answers an unknown subdomain as Zulip does", async () => {
      const res = await t.as(null, { host: "nowhere.testserver.local:9991" }).get("/users");
      assertError(res, "There is no Zulip organization hosted at this subdomain.", "NONEXISTENT_SUBDOMAIN", 404);
    });

    it("closes again when the web-public channel is archived or spectator access is turned off", async () => {
      assert.equal((await t.as("desdemona").delete(`/streams/${webPublicId}`)).status, 200);
      assertError(await anonymous().get("/users"), NOT_LOGGED_IN, "UNAUTHORIZED", 401);
      const again = await t.as("desdemona").post("/channels/create", { name: "open again", subscribers: [], is_web_public: true });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal((await anonymous().get("/users")).status, 200);
      await setRealm(t, { enable_spectator_access: false });
      assertError(await anonymous().get("/users"), NOT_LOGGED_IN, "UNAUTHORIZED", 401);
    });
  });

  describe(`GET /users for spectators, web-public channels off on the server [${kind}]`, () => {
    it("keeps the 401 whatever the realm says", async () => {
      const t = await createTestRealm(kind, { webPublicStreamsEnabled: false });
      try {
        await setRealm(t, { enable_spectator_access: true });
        assertError(await t.as(null).get("/users"), NOT_LOGGED_IN, "UNAUTHORIZED", 401);
      } finally {
        await t.close();
      }
    });
  });
}
