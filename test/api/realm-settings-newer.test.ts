/**
 * Realm settings and register keys Zulip added after FL 378 (docs/COMPATIBILITY.md rows 409, 434,
 * 442, 453, 456, 466, 469, 486, 488), on every store: PATCH /realm sets them (administrators
 * only), register reports them, everyone hears of a change, and each one takes effect where Zulip
 * applies it (new users' avatars, channel-event notices).
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import { getUserById } from "../../src/store/users.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel } from "../helpers/conversations.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

for (const kind of STORE_KINDS) {
  describe(`newer realm settings [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const patch = (params: Record<string, unknown>, who: "desdemona" | "iago" | "hamlet" = "iago") => t.as(who).patch("/realm", params);
    const register = async () => {
      const res = await t.as("hamlet").post("/register", { fetch_event_types: ["realm", "giphy"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };

    it("reports Zulip's defaults, the GIF keys under their new names and a stable realm_uuid", async () => {
      const body = await register();
      assert.equal(body.realm_media_preview_size, 100);
      assert.equal(body.realm_default_avatar_source, "G");
      assert.equal(body.realm_send_channel_events_messages, true);
      assert.equal(body.realm_require_e2ee_push_notifications, false);
      assert.equal(body.realm_gif_rating_policy, 2);
      assert.equal((body.gif_rating_policy_options as Record<string, { id: number }>).pg.id, 3);
      assert.equal(body.giphy_rating_options, undefined);
      assert.equal(body.realm_giphy_rating, undefined);
      assert.deepEqual([body.giphy_api_key, body.tenor_api_key, body.klipy_api_key], ["", "", ""]);
      assert.match(String(body.realm_uuid), UUID);
      assert.equal((await register()).realm_uuid, body.realm_uuid);
      // Changing other settings keeps it.
      assert.equal((await patch({ name: "Elsinore", enable_read_receipts: false })).status, 200);
      assert.equal((await register()).realm_uuid, body.realm_uuid);
    });

    it("changes each setting, telling everyone, and answers with the new values", async () => {
      t.published.length = 0;
      const res = await patch({
        media_preview_size: 150, default_avatar_source: "J", send_channel_events_messages: false,
        require_e2ee_push_notifications: true, gif_rating_policy: 0,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        result: "success", msg: "", media_preview_size: 150, default_avatar_source: "J", send_channel_events_messages: false,
        require_e2ee_push_notifications: true, gif_rating_policy: 0,
      });
      const events = eventsOf(t, "realm");
      assert.deepEqual(
        events.map((e) => [e.event.property, e.event.value]).sort(),
        [["default_avatar_source", "J"], ["gif_rating_policy", 0], ["media_preview_size", 150], ["require_e2ee_push_notifications", true], ["send_channel_events_messages", false]],
      );
      assert.ok(events.every((e) => e.userIds.includes(t.users.hamlet.id)));
      const body = await register();
      assert.deepEqual(
        [body.realm_media_preview_size, body.realm_default_avatar_source, body.realm_send_channel_events_messages, body.realm_require_e2ee_push_notifications, body.realm_gif_rating_policy],
        [150, "J", false, true, 0],
      );
      t.published.length = 0;
      assert.deepEqual((await patch({ media_preview_size: 150, default_avatar_source: "J" })).body, { result: "success", msg: "" });
      assert.equal(eventsOf(t, "realm").length, 0);
    });

    it("refuses bad values and non-administrators, changing nothing", async () => {
      const before = (await getRealmById(readTx(t.deps.store), t.realmId))!.settings;
      assertError(await patch({ media_preview_size: 10 }), "Invalid media_preview_size", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ media_preview_size: 301 }), "Invalid media_preview_size", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ media_preview_size: "big" }), "media_preview_size is not an integer", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ default_avatar_source: "U" }), "Invalid default_avatar_source", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ gif_rating_policy: 9 }), "Invalid gif_rating_policy", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ send_channel_events_messages: 3 }), "send_channel_events_messages is not a boolean", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ require_e2ee_push_notifications: true }, "hamlet"), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assert.equal((await getRealmById(readTx(t.deps.store), t.realmId))!.settings, before);
    });

    it("gives new users the realm's default avatar source: a generated image for J, even with Gravatar", async () => {
      assert.equal((await patch({ default_avatar_source: "J" })).status, 200);
      const res = await t.as("iago").post("/users", { email: "ophelia@zulip.test", password: "a-long-password", full_name: "Ophelia" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const ophelia = (await getUserById(readTx(t.deps.store), t.realmId, res.body.user_id as number))!;
      assert.equal(ophelia.avatar_source, "J");
      const gravatar = await createTestRealm(kind, { enableGravatar: true });
      try {
        assert.equal((await gravatar.as("iago").patch("/realm", { default_avatar_source: "J" })).status, 200);
        const created = await gravatar.as("iago").post("/users", { email: "ophelia@zulip.test", password: "a-long-password", full_name: "Ophelia" });
        const id = created.body.user_id as number;
        const user = await gravatar.as("hamlet").get(`/users/${id}`, { client_gravatar: true });
        assert.equal(user.status, 200, JSON.stringify(user.body));
        const presented = user.body.user as Record<string, unknown>;
        assert.equal(presented.avatar_url, `/user_avatars/${gravatar.realmId}/defaults/${id}.png?version=1`);
        // An older user keeps Gravatar.
        const hamlet = (await gravatar.as("iago").get(`/users/${gravatar.users.hamlet.id}`, { client_gravatar: false })).body.user as Record<string, unknown>;
        assert.match(String(hamlet.avatar_url), /gravatar\.com/);
      } finally {
        await gravatar.close();
      }
    });

    it("posts channel-event notices only while send_channel_events_messages is on", async () => {
      const notices = async (channelId: number) => {
        const res = await t.as("iago").get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: channelId }]) });
        return (res.body.messages as Array<{ subject: string }>).filter((m) => m.subject === "channel events").length;
      };
      const quiet = await createChannel(t, "quiet", ["iago", "hamlet"]);
      assert.equal((await patch({ send_channel_events_messages: false })).status, 200);
      assert.equal((await t.as("iago").delete(`/streams/${quiet}`)).status, 200);
      assert.equal((await t.as("iago").patch(`/streams/${quiet}`, { is_archived: false })).status, 200);
      assert.equal(await notices(quiet), 0);
      assert.equal((await patch({ send_channel_events_messages: true })).status, 200);
      const loud = await createChannel(t, "loud", ["iago", "hamlet"]);
      assert.equal((await t.as("iago").delete(`/streams/${loud}`)).status, 200);
      assert.equal(await notices(loud), 1);
    });

    it("lists discord among GET /server_settings' authentication methods, off", async () => {
      const res = await t.as("hamlet").get("/server_settings");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.body.authentication_methods as Record<string, boolean>).discord, false);
    });
  });
}
