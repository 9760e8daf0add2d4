/**
 * Reading channels (GET /streams with its filters, GET /streams/{id}, GET /get_stream_id,
 * members), archiving (DELETE /streams/{id}) and the default-channel endpoints.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { addUser } from "../helpers/org.js";
import { addGroup, eventsOf, ids, realmSettings, setRealm, setRealmSetting } from "../helpers/channels.js";
import { createTestRealm, type ApiResponse, type TestRealm } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`channels [${kind}]`, () => {
    let t: TestRealm;
    const channel: Record<string, number> = {};
    before(async () => {
      t = await createTestRealm(kind);
      await setRealm(t, { enable_spectator_access: true });
      const make = async (name: string, params: Record<string, unknown>) => {
        const res = await t.as("desdemona").post("/channels/create", { name, ...params });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        channel[name] = res.body.id;
      };
      await make("public", { subscribers: [t.users.hamlet.id] });
      await make("other-public", { subscribers: [] });
      await make("web", { subscribers: [], is_web_public: true });
      await make("private", { subscribers: [t.users.hamlet.id, t.users.polonius.id], invite_only: true });
      await make("hidden", { subscribers: [t.users.othello.id], invite_only: true });
      await make("archived", { subscribers: [t.users.hamlet.id] });
      assert.equal((await t.as("iago").delete(`/streams/${channel.archived}`)).status, 200);
    });
    after(() => t.close());

    const names = (res: ApiResponse): string[] => res.body.streams.map((s: { name: string }) => s.name);

    it("lists public and subscribed channels by default, sorted by name, archived ones left out", async () => {
      const res = await t.as("hamlet").get("/streams");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(names(res), ["other-public", "private", "public", "web"]);
      const stream = res.body.streams.find((s: { name: string }) => s.name === "public");
      assert.equal(stream.subscriber_count, 1);
      assert.equal(stream.is_archived, false);
      assert.equal(stream.stream_weekly_traffic, null);
      assert.equal("is_default" in stream, false);
      assert.deepEqual(names(await t.as("othello").get("/streams")), ["hidden", "other-public", "public", "web"]);
    });

    it("applies the include_* and exclude_archived filters", async () => {
      assert.deepEqual(names(await t.as("hamlet").get("/streams", { include_public: false })), ["private", "public"]);
      assert.deepEqual(names(await t.as("hamlet").get("/streams", { include_public: false, include_subscribed: false })), []);
      assert.deepEqual(names(await t.as("hamlet").get("/streams", { include_public: false, include_subscribed: false, include_web_public: true })), ["web"]);
      assert.deepEqual(names(await t.as("hamlet").get("/streams", { exclude_archived: false })), ["archived", "other-public", "private", "public", "web"]);
      assert.deepEqual(names(await t.as("hamlet").get("/streams", { include_can_access_content: true })), ["other-public", "private", "public", "web"]);
      // include_all: every channel whose metadata one may see (admins see private ones too).
      assert.deepEqual(names(await t.as("iago").get("/streams", { include_all: true })), ["hidden", "other-public", "private", "public", "web"]);
      assert.deepEqual(names(await t.as("iago").get("/streams", { include_all_active: true })), ["hidden", "other-public", "private", "public", "web"]);
      assert.deepEqual(names(await t.as("cordelia").get("/streams", { include_all: true })), ["other-public", "public", "web"]);
      // The deprecated include_all_active stays administrators-only, as Zulip's get_streams_for_user keeps it.
      for (const who of ["cordelia", "shiva", "polonius"] as const) {
        assertError(await t.as(who).get("/streams", { include_all_active: true }), "User not authorized for this query", "BAD_REQUEST");
      }
      assert.equal((await t.as("cordelia").get("/streams", { include_all_active: false })).status, 200);
      assertError(await t.as("hamlet").get("/streams", { include_public: "maybe" }), 'Argument "include_public" is not valid JSON.', "INVALID_JSON");
    });

    it("shows guests only their subscriptions and web-public channels", async () => {
      assert.deepEqual(names(await t.as("polonius").get("/streams")), ["private"]);
      assert.deepEqual(names(await t.as("polonius").get("/streams", { include_web_public: true })), ["private", "web"]);
      assertError(await t.as("polonius").get(`/streams/${channel.public}`), "Invalid channel ID");
      assert.equal((await t.as("polonius").get(`/streams/${channel.web}`)).status, 200);
    });

    it("lists what a bot's owner is subscribed to with include_owner_subscribed", async () => {
      const bot = await addUser(t, { botOwner: t.users.hamlet });
      const own = await t.as(bot).get("/streams", { include_public: false, include_subscribed: false, include_owner_subscribed: true });
      assert.deepEqual(names(own), ["private", "public"]);
      const human = await t.as("othello").get("/streams", { include_public: false, include_subscribed: false, include_owner_subscribed: true });
      assert.deepEqual(names(human), []);
    });

    it("fetches one channel by id, archived ones included, hiding private ones the same as missing ones", async () => {
      const res = await t.as("hamlet").get(`/streams/${channel.private}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.stream.name, "private");
      assert.equal((await t.as("hamlet").get(`/streams/${channel.archived}`)).body.stream.is_archived, true);
      assert.deepEqual((await t.as("hamlet").get(`/streams/${channel.hidden}`)).body, (await t.as("hamlet").get("/streams/99999")).body);
      assertError(await t.as("hamlet").get("/streams/99999"), "Invalid channel ID");
      assert.equal((await t.as("iago").get(`/streams/${channel.hidden}`)).status, 200);
    });

    it("finds a channel's id by name", async () => {
      assert.equal((await t.as("hamlet").get("/get_stream_id", { stream: "PUBLIC" })).body.stream_id, channel.public);
      // Zulip's access_stream_by_name: missing and hidden alike are BAD_REQUEST "Invalid channel name".
      assertError(await t.as("hamlet").get("/get_stream_id", { stream: "hidden" }), "Invalid channel name 'hidden'", "BAD_REQUEST");
      assert.deepEqual((await t.as("hamlet").get("/get_stream_id", { stream: "nonexistent" })).body, {
        result: "error",
        msg: "Invalid channel name 'nonexistent'",
        code: "BAD_REQUEST",
      });
      assertError(await t.as("hamlet").get("/get_stream_id", {}), "Missing 'stream' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("lists a channel's subscribers, archived channels' too, to those who may see it", async () => {
      assert.deepEqual((await t.as("cordelia").get(`/streams/${channel.public}/members`)).body.subscribers, ids(t, "hamlet"));
      assert.deepEqual((await t.as("iago").get(`/streams/${channel.hidden}/members`)).body.subscribers, ids(t, "othello"));
      assertError(await t.as("hamlet").get(`/streams/${channel.hidden}/members`), "Invalid channel ID");
      // FL 480: an archived channel's subscribers can be read.
      const archived = await t.as("hamlet").get(`/streams/${channel.archived}/members`);
      assert.equal(archived.status, 200, JSON.stringify(archived.body));
      assert.deepEqual(archived.body.subscribers, ids(t, "hamlet"));
      assertError(await t.as("hamlet").get("/streams/99999/members"), "Invalid channel ID");
    });

    it("archives a channel for its administrators: hidden from lists, subscriptions kept, one delete event", async () => {
      const doomed = (await t.as("hamlet").post("/channels/create", { name: "doomed", subscribers: [t.users.hamlet.id, t.users.cordelia.id] })).body.id;
      await setRealmSetting(t, "new_stream_announcements_stream_id", doomed);
      assert.equal((await t.as("iago").post("/default_streams", { stream_id: doomed })).status, 200);
      assert.equal(
        (await t.as("cordelia").delete(`/streams/${doomed}`)).body.msg,
        "You do not have permission to administer this channel.",
      );
      assertError(await t.as("cordelia").delete(`/streams/${channel.hidden}`), "Invalid channel ID");
      const from = t.published.length;
      assert.equal((await t.as("hamlet").delete(`/streams/${doomed}`)).status, 200);
      const [deleted] = eventsOf(t, "stream", "delete", from);
      assert.deepEqual(deleted.event.stream_ids, [doomed]);
      assert.equal((deleted.event.streams as Array<{ stream_id: number }>)[0].stream_id, doomed);
      for (const id of ids(t, "desdemona", "iago", "shiva", "hamlet", "othello", "cordelia", "bot")) assert.ok(deleted.userIds.includes(id));
      assert.ok(!deleted.userIds.includes(t.users.polonius.id));
      assert.deepEqual(eventsOf(t, "default_streams", undefined, from)[0].event.default_streams, []);
      assert.deepEqual(eventsOf(t, "realm", "update_dict", from)[0].event.data, { new_stream_announcements_stream_id: -1 });
      assert.equal((await realmSettings(t)).new_stream_announcements_stream_id, undefined);
      assert.ok(!names(await t.as("hamlet").get("/streams")).includes("doomed"));
      assert.ok(!(await t.as("hamlet").get("/users/me/subscriptions")).body.subscriptions.some((s: { name: string }) => s.name === "doomed"));
      assert.equal((await t.as("hamlet").get(`/users/${t.users.hamlet.id}/subscriptions/${doomed}`)).body.is_subscribed, true);
      assertError(await t.as("hamlet").delete(`/streams/${doomed}`), "Channel is already deactivated");
      assertError(await t.as("hamlet").delete("/streams/99999"), "Invalid channel ID");
    });

    it("lets channel administrators (by group) archive, and only them", async () => {
      const group = await addGroup(t, "archivists", ["cordelia"]);
      let n = 0;
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet"], async (caller) => {
        const administrators = caller === "shiva" || caller === "hamlet" ? { direct_members: [t.users[caller].id], direct_subgroups: [group] } : group;
        const res = await t.as("desdemona").post("/channels/create", { name: `archive-${++n}`, subscribers: [], can_administer_channel_group: administrators });
        return t.as(caller).delete(`/streams/${res.body.id}`);
      });
    });

    it("adds and removes default channels for administrators", async () => {
      assertError(await t.as("hamlet").post("/default_streams", { stream_id: channel.public }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").post("/default_streams", { stream_id: channel.hidden }), "Invalid channel ID");
      assert.equal((await t.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "hidden" }] })).status, 400);
      assertError(await t.as("iago").post("/default_streams", { stream_id: channel.private }), "Invalid channel ID");
      assertError(await t.as("iago").post("/default_streams", { stream_id: 99999 }), "Invalid channel ID");
      assertError(await t.as("iago").post("/default_streams", {}), "Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING");
      const from = t.published.length;
      assert.equal((await t.as("iago").post("/default_streams", { stream_id: channel.public })).status, 200);
      const [event] = eventsOf(t, "default_streams", undefined, from);
      assert.deepEqual(event.event.default_streams, [channel.public]);
      assert.equal(event.userIds.includes(t.users.polonius.id), false);
      assert.equal((await t.as("iago").post("/default_streams", { stream_id: channel.public })).status, 200);
      assert.equal(eventsOf(t, "default_streams", undefined, from).length, 1, "adding twice changes nothing");
      const listed = (await t.as("hamlet").get("/streams", { include_default: true })).body.streams;
      assert.deepEqual(listed.filter((s: { is_default: boolean }) => s.is_default).map((s: { name: string }) => s.name), ["public"]);
      assertError(await t.as("shiva").delete("/default_streams", { stream_id: channel.public }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assert.equal((await t.as("iago").delete("/default_streams", { stream_id: channel.public })).status, 200);
      assert.deepEqual(eventsOf(t, "default_streams", undefined, from)[1].event.default_streams, []);
    });

    it("refuses private channels as default ones", async () => {
      const res = await t.as("iago").post("/channels/create", { name: "admins-private", subscribers: [t.users.iago.id], invite_only: true });
      assertError(await t.as("iago").post("/default_streams", { stream_id: res.body.id }), "Private channels cannot be made default.");
    });
  });
}
