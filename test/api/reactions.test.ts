/** Emoji reactions (spec 4.18): add, remove, validation, votes, access and events, on every store. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { FLAG_BITS } from "../../src/lib/flags.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import {
  addRealmEmoji,
  archiveChannel,
  createChannel,
  muteChannel,
  sendDirect,
  sendToChannel,
  setRealmEmojiDeactivated,
  setUserSettings,
  subscribe,
  userMessageFlags,
} from "../helpers/conversations.js";

for (const kind of STORE_KINDS) {
  describe(`emoji reactions [${kind}]`, () => {
    let t: TestRealm;
    let greenTick: number;
    let verona: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      greenTick = await addRealmEmoji(t, "green_tick");
    });
    after(() => t.close());
    beforeEach(() => {
      t.published.length = 0;
    });

    const react = (user: UserName, id: number, params: Record<string, unknown>) => t.as(user).post(`/messages/${id}/reactions`, params);
    const unreact = (user: UserName, id: number, params: Record<string, unknown>) => t.as(user).delete(`/messages/${id}/reactions`, params);
    const reactionsOf = async (id: number) => (await t.as("iago").get(`/messages/${id}`)).body.message.reactions;
    const reactionEvents = () => t.published.filter((e) => e.event.type === "reaction");

    it("adds a Unicode emoji by name and publishes the reaction event, without the user object removed at FL 484", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "lunch");
      const res = await react("hamlet", id, { emoji_name: "smile" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: "success", msg: "" });
      assert.deepEqual(await reactionsOf(id), [
        { emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_id: t.users.hamlet.id },
      ]);
      const [event] = reactionEvents();
      assert.deepEqual(event.event, {
        type: "reaction",
        op: "add",
        user_id: t.users.hamlet.id,
        message_id: id,
        emoji_name: "smile",
        emoji_code: "1f604",
        reaction_type: "unicode_emoji",
      });
      assert.deepEqual(event.userIds.sort(), [t.users.iago.id, t.users.hamlet.id, t.users.othello.id].sort());
    });

    it("accepts an explicit code and type, custom emoji and the extra emoji", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "emoji kinds");
      const cases: Array<[Record<string, unknown>, { emoji_name: string; emoji_code: string; reaction_type: string }]> = [
        [{ emoji_name: "hamburger", emoji_code: "1f354", reaction_type: "unicode_emoji" }, { emoji_name: "hamburger", emoji_code: "1f354", reaction_type: "unicode_emoji" }],
        [{ emoji_name: "green_tick" }, { emoji_name: "green_tick", emoji_code: String(greenTick), reaction_type: "realm_emoji" }],
        [{ emoji_name: "zulip" }, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" }],
      ];
      for (const [params] of cases) {
        const res = await react("hamlet", id, params);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const got = await reactionsOf(id);
      assert.deepEqual(got, cases.map(([, r]) => ({ ...r, user_id: t.users.hamlet.id })));
      // Zulip's spelling, the only one the mobile app's parser accepts (issue 15).
      const explicit = await react("othello", id, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
      assert.equal(explicit.status, 200, JSON.stringify(explicit.body));
      assert.equal((await reactionsOf(id)).at(-1).reaction_type, "zulip_extra_emoji");
    });

    it("refuses emoji that do not exist or do not match", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "bad emoji");
      const retired = await addRealmEmoji(t, "retired", true);
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ emoji_name: "foo" }, "Emoji 'foo' does not exist", "BAD_REQUEST"],
        [{ emoji_name: "retired" }, "Emoji 'retired' does not exist", "BAD_REQUEST"],
        [{ emoji_name: "hamburger", emoji_code: "TBD", reaction_type: "unicode_emoji" }, "Invalid emoji code.", "BAD_REQUEST"],
        [{ emoji_name: "non-existent", emoji_code: "1f44d", reaction_type: "unicode_emoji" }, "Invalid emoji name.", "BAD_REQUEST"],
        [{ emoji_name: "green_tick", emoji_code: "9999", reaction_type: "realm_emoji" }, "Invalid custom emoji.", "BAD_REQUEST"],
        // Ids past PostgreSQL's INTEGER and past 2^53 (found by fuzzing: a 500 on PostgreSQL).
        [{ emoji_name: "green_tick", emoji_code: String(2 ** 31), reaction_type: "realm_emoji" }, "Invalid custom emoji.", "BAD_REQUEST"],
        [{ emoji_name: "green_tick", emoji_code: "9".repeat(32), reaction_type: "realm_emoji" }, "Invalid custom emoji.", "BAD_REQUEST"],
        [{ emoji_name: "bogus", emoji_code: String(greenTick), reaction_type: "realm_emoji" }, "Invalid custom emoji name.", "BAD_REQUEST"],
        [{ emoji_name: "retired", emoji_code: String(retired), reaction_type: "realm_emoji" }, "This custom emoji has been deactivated.", "BAD_REQUEST"],
        [{ emoji_name: "extra", emoji_code: "extra", reaction_type: "zulip_extra_emoji" }, "Invalid emoji code.", "BAD_REQUEST"],
        [{ emoji_name: "zulip_x", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" }, "Invalid emoji name.", "BAD_REQUEST"],
        // The spelling Parley once stored is no reaction type of Zulip's.
        [{ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "service_extra_emoji" }, "Invalid emoji type.", "BAD_REQUEST"],
        [{ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "nonexistent_emoji_type" }, "Invalid emoji type.", "BAD_REQUEST"],
        [{}, "Missing 'emoji_name' argument", "REQUEST_VARIABLE_MISSING"],
      ];
      for (const [params, msg, code] of cases) {
        const res = await react("hamlet", id, params);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.deepEqual([res.body.msg, res.body.code], [msg, code], JSON.stringify(params));
      }
      assert.deepEqual(await reactionsOf(id), []);
      assert.deepEqual(reactionEvents(), []);
    });

    it("refuses the same reaction twice, whatever name it is sent under", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "twice");
      assert.equal((await react("hamlet", id, { emoji_name: "hamburger" })).status, 200);
      for (const params of [{ emoji_name: "hamburger" }, { emoji_name: "non-existent", emoji_code: "1f354", reaction_type: "unicode_emoji" }]) {
        const again = await react("hamlet", id, params);
        assert.equal(again.status, 400);
        assert.deepEqual(again.body, { result: "error", msg: "Reaction already exists.", code: "REACTION_ALREADY_EXISTS" });
      }
      assert.equal((await reactionsOf(id)).length, 1);
    });

    it("counts the same emoji under another name as a vote for the existing reaction", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "votes");
      assert.equal((await react("othello", id, { emoji_name: "+1" })).status, 200);
      t.published.length = 0;
      assert.equal((await react("hamlet", id, { emoji_name: "thumbs_up" })).status, 200);
      const got = await reactionsOf(id);
      assert.deepEqual(got.map((r: { emoji_name: string; user_id: number }) => [r.emoji_name, r.user_id]), [
        ["+1", t.users.othello.id],
        ["+1", t.users.hamlet.id],
      ]);
      assert.equal(reactionEvents()[0].event.emoji_name, "+1");
      // Without an earlier reaction the name sent is kept, alias or not.
      const other = await sendToChannel(t, "iago", "Verona", "votes");
      assert.equal((await react("hamlet", other, { emoji_name: "thumbs_up" })).status, 200);
      assert.equal((await reactionsOf(other))[0].emoji_name, "thumbs_up");
    });

    it("lets users vote for a custom emoji that has since been deactivated", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "old emoji");
      const fading = await addRealmEmoji(t, "fading");
      const params = { emoji_name: "fading", emoji_code: String(fading), reaction_type: "realm_emoji" };
      assert.equal((await react("hamlet", id, params)).status, 200);
      await setRealmEmojiDeactivated(t, fading, true);
      assert.equal((await react("othello", id, params)).status, 200);
      const fresh = await sendToChannel(t, "iago", "Verona", "old emoji");
      const refused = await react("othello", fresh, params);
      assert.equal(refused.body.msg, "This custom emoji has been deactivated.");
      assert.equal((await unreact("hamlet", id, params)).status, 200);
    });

    it("needs read access to the message, with one error for hidden and missing", async () => {
      const dm = await sendDirect(t, "hamlet", ["othello"]);
      const privateId = await createChannel(t, "Secret", ["iago"], { invite_only: true, history_public_to_subscribers: true });
      const secret = await sendToChannel(t, "iago", "Secret", "plans");
      const expected = { result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" };
      for (const [user, id] of [["iago", dm], ["hamlet", secret], ["polonius", await sendToChannel(t, "iago", "Verona", "guests")], ["hamlet", 999999]] as const) {
        const res = await react(user, id, { emoji_name: "smile" });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, expected);
        assert.deepEqual((await unreact(user, id, { emoji_name: "smile" })).body, expected);
      }
      assert.equal((await react("othello", dm, { emoji_name: "smile" })).status, 200);
      await subscribe(t, privateId, ["hamlet"]);
      assert.equal((await react("hamlet", secret, { emoji_name: "smile" })).status, 200);
    });

    it("gives a reader of public history a historical row for the message", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "history");
      assert.equal(await userMessageFlags(t, "cordelia", id), null);
      assert.equal((await react("cordelia", id, { emoji_name: "smile" })).status, 200);
      const flags = await userMessageFlags(t, "cordelia", id);
      assert.equal(flags, FLAG_BITS.read | FLAG_BITS.historical);
      assert.ok(reactionEvents()[0].userIds.includes(t.users.cordelia.id));
      // A recipient's own row is left as it was.
      const before = await userMessageFlags(t, "hamlet", id);
      assert.equal((await react("hamlet", id, { emoji_name: "smile" })).status, 200);
      assert.equal(await userMessageFlags(t, "hamlet", id), before);
    });

    it("refuses reactions on messages of archived channels", async () => {
      const channelId = await createChannel(t, "Attic", ["hamlet"]);
      const id = await sendToChannel(t, "hamlet", "Attic", "dust");
      assert.equal((await react("hamlet", id, { emoji_name: "smile" })).status, 200);
      await archiveChannel(t, channelId);
      for (const call of [react, unreact]) {
        const res = await call("hamlet", id, { emoji_name: "smile" });
        assert.equal(res.status, 400);
        assert.equal(res.body.msg, "Invalid message(s)");
      }
    });

    it("removes a reaction and publishes the removal with the stored name", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "removal");
      assert.equal((await react("othello", id, { emoji_name: "+1" })).status, 200);
      assert.equal((await react("hamlet", id, { emoji_name: "thumbs_up" })).status, 200);
      t.published.length = 0;
      const res = await unreact("hamlet", id, { emoji_code: "1f44d" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [event] = reactionEvents();
      assert.equal(event.event.op, "remove");
      assert.equal(event.event.emoji_name, "+1");
      assert.equal(event.event.user_id, t.users.hamlet.id);
      assert.deepEqual((await reactionsOf(id)).map((r: { user_id: number }) => r.user_id), [t.users.othello.id]);
      // By name only; then nothing is left to remove.
      assert.equal((await unreact("othello", id, { emoji_name: "+1" })).status, 200);
      const gone = await unreact("othello", id, { emoji_name: "+1" });
      assert.equal(gone.status, 400);
      assert.deepEqual(gone.body, { result: "error", msg: "Reaction doesn't exist.", code: "REACTION_DOES_NOT_EXIST" });
    });

    it("removes custom and extra emoji reactions given their type, and needs a name or a code", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "removal kinds");
      assert.equal((await react("hamlet", id, { emoji_name: "green_tick" })).status, 200);
      assert.equal((await react("hamlet", id, { emoji_name: "zulip" })).status, 200);
      // Removal assumes unicode_emoji unless told otherwise.
      assert.equal((await unreact("hamlet", id, { emoji_name: "green_tick" })).body.code, "REACTION_DOES_NOT_EXIST");
      assert.equal((await unreact("hamlet", id, { emoji_name: "green_tick", reaction_type: "realm_emoji" })).status, 200);
      assert.equal((await unreact("hamlet", id, { emoji_name: "zulip", reaction_type: "zulip_extra_emoji" })).status, 200);
      const neither = await unreact("hamlet", id, {});
      assert.equal(neither.status, 400);
      assert.equal(neither.body.msg, "At least one of the following arguments must be present: emoji_name, emoji_code");
      assert.equal((await unreact("hamlet", id, { emoji_name: "foo" })).body.msg, "Emoji 'foo' does not exist");
      assert.deepEqual(await reactionsOf(id), []);
    });

    it("sends reaction events only to users who can see the message", async () => {
      const dm = await sendDirect(t, "hamlet", ["othello", "cordelia"]);
      await react("othello", dm, { emoji_name: "smile" });
      assert.deepEqual(reactionEvents()[0].userIds.sort(), [t.users.hamlet.id, t.users.othello.id, t.users.cordelia.id].sort());

      // Protected history: a later subscriber neither sees the old message nor hears about it.
      const channelId = await createChannel(t, "Vault", ["iago"], { invite_only: true, history_public_to_subscribers: false });
      const early = await sendToChannel(t, "iago", "Vault", "early");
      await subscribe(t, channelId, ["hamlet"]);
      const late = await sendToChannel(t, "iago", "Vault", "late");
      t.published.length = 0;
      await react("iago", early, { emoji_name: "smile" });
      await react("iago", late, { emoji_name: "smile" });
      const [onEarly, onLate] = reactionEvents();
      assert.deepEqual(onEarly.userIds, [t.users.iago.id]);
      assert.deepEqual(onLate.userIds.sort(), [t.users.iago.id, t.users.hamlet.id].sort());
      assert.equal((await react("hamlet", early, { emoji_name: "smile" })).body.msg, "Invalid message(s)");
    });

    it("settles concurrent identical reactions as one success and one 'already exists'", async () => {
      const id = await sendToChannel(t, "iago", "Verona", "race");
      const results = await Promise.all([1, 2, 3].map(() => react("hamlet", id, { emoji_name: "octopus" })));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400]);
      assert.ok(results.filter((r) => r.status === 400).every((r) => r.body.code === "REACTION_ALREADY_EXISTS"));
      assert.equal((await reactionsOf(id)).length, 1);
    });

    it("follows or unmutes the topic for users whose settings ask for it on participation", async () => {
      const userTopicEvents = () => t.published.filter((e) => e.event.type === "user_topic").map((e) => [e.event.topic_name, e.event.visibility_policy, e.userIds]);
      await setUserSettings(t, "othello", { automatically_follow_topics_policy: 1 });
      const id = await sendToChannel(t, "iago", "Verona", "participation");
      t.published.length = 0;
      assert.equal((await react("othello", id, { emoji_name: "smile" })).status, 200);
      assert.deepEqual(userTopicEvents(), [["participation", 3, [t.users.othello.id]]]);
      // Once followed nothing more changes, and the default settings never act on participation.
      t.published.length = 0;
      await react("othello", id, { emoji_name: "tada" });
      await react("hamlet", id, { emoji_name: "tada" });
      assert.deepEqual(userTopicEvents(), []);
      // In a muted channel the unmute setting applies.
      await subscribe(t, verona, ["shiva"]);
      await muteChannel(t, verona, "shiva", true);
      await setUserSettings(t, "shiva", { automatically_unmute_topics_in_muted_streams_policy: 1 });
      await react("shiva", id, { emoji_name: "smile" });
      assert.deepEqual(userTopicEvents(), [["participation", 2, [t.users.shiva.id]]]);
    });
  });
}
