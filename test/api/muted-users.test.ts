/**
 * Muted users (Zulip's mute-user / unmute-user, FL 48; bots FL 188), on every store: the list in
 * register and `muted_users` events, unread messages from the muted user marked read at once, new
 * ones arriving read (and so out of unread counts and read receipts), and the refusals as Zulip
 * words them.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { hasMutedSender } from "../../src/policy/muted-users.js";
import { readTx } from "../../src/store/db.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { addUser, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

describe("hasMutedSender (policy)", () => {
  it("holds for a recipient among the sender's muters, never for the sender", () => {
    const muters = new Set([2, 3]);
    assert.equal(hasMutedSender(2, 9, muters), true);
    assert.equal(hasMutedSender(4, 9, muters), false);
    assert.equal(hasMutedSender(3, 3, muters), false);
  });
});

for (const kind of STORE_KINDS) {
  describe(`muted users [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "lounge", ["hamlet", "othello", "cordelia"]);
    });
    afterEach(() => t.close());

    const mute = (who: UserName, target: number) => t.as(who).post(`/users/me/muted_users/${target}`);
    const unmute = (who: UserName, target: number) => t.as(who).delete(`/users/me/muted_users/${target}`);
    const unreadIds = async (who: UserName): Promise<number[]> => {
      const res = await t.as(who).get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "is", operand: "unread" }] });
      return (res.body.messages as Array<{ id: number }>).map((m) => m.id);
    };

    it("mutes and unmutes, telling only the muter's clients the whole list, and keeps it in register", async () => {
      t.published.length = 0;
      t.clock.seconds = 1_700_000_100;
      assert.equal((await mute("hamlet", t.users.othello.id)).status, 200);
      t.clock.seconds = 1_700_000_200;
      assert.equal((await mute("hamlet", t.users.bot.id)).status, 200);
      const expected = [
        { id: t.users.othello.id, timestamp: 1_700_000_100 },
        { id: t.users.bot.id, timestamp: 1_700_000_200 },
      ];
      const events = eventsOf(t, "muted_users");
      assert.deepEqual(events.map((e) => e.event), [
        { type: "muted_users", muted_users: expected.slice(0, 1) },
        { type: "muted_users", muted_users: expected },
      ]);
      assert.ok(events.every((e) => e.userIds.length === 1 && e.userIds[0] === t.users.hamlet.id));
      const state = (await t.as("hamlet").post("/register", { fetch_event_types: ["muted_users"] })).body;
      assert.deepEqual(state.muted_users, expected);
      assert.deepEqual((await t.as("othello").post("/register", { fetch_event_types: ["muted_users"] })).body.muted_users, []);

      assert.equal((await unmute("hamlet", t.users.othello.id)).status, 200);
      assert.deepEqual(eventsOf(t, "muted_users").at(-1)!.event, { type: "muted_users", muted_users: expected.slice(1) });
      assert.deepEqual((await t.as("hamlet").post("/register", { fetch_event_types: ["muted_users"] })).body.muted_users, expected.slice(1));
      const log = await readTx(t.deps.store).db.selectFrom("audit_log").select(["event_type", "extra_data"]).where("modified_user_id", "=", t.users.hamlet.id).orderBy("id").execute();
      assert.deepEqual(
        log.filter((l) => ["user_muted", "user_unmuted"].includes(l.event_type)).map((l) => [l.event_type, JSON.parse(l.extra_data)]),
        [
          ["user_muted", { muted_user_id: t.users.othello.id }],
          ["user_muted", { muted_user_id: t.users.bot.id }],
          ["user_unmuted", { unmuted_user_id: t.users.othello.id }],
        ],
      );
    });

    it("marks the muted user's unread messages read at once, with one flags event, leaving others' alone", async () => {
      const fromOthello = [await sendToChannel(t, "othello", "lounge", "a"), await sendDirect(t, "othello", ["hamlet"]), await sendDirect(t, "othello", ["hamlet", "cordelia"])];
      const fromCordelia = await sendToChannel(t, "cordelia", "lounge", "b");
      assert.deepEqual(await unreadIds("hamlet"), [...fromOthello, fromCordelia]);
      t.published.length = 0;
      assert.equal((await mute("hamlet", t.users.othello.id)).status, 200);
      assert.deepEqual(await unreadIds("hamlet"), [fromCordelia]);
      assert.deepEqual(eventsOf(t, "update_message_flags").map((e) => [e.event, e.userIds]), [
        [{ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: fromOthello, all: false }, [t.users.hamlet.id]],
      ]);
      // Cordelia's copies are untouched, and so is the muted sender's own view.
      assert.deepEqual(await unreadIds("cordelia"), [fromOthello[0], fromOthello[2]]);
    });

    it("delivers the muted user's new messages already read to the muter only, until unmuted", async () => {
      assert.equal((await mute("hamlet", t.users.othello.id)).status, 200);
      const queue = (await t.as("hamlet").post("/register", { event_types: ["message"] })).body.queue_id as string;
      t.published.length = 0;
      const channelMessage = await sendToChannel(t, "othello", "lounge", "news", "@**King Hamlet** look");
      const direct = await sendDirect(t, "othello", ["hamlet"]);
      const messageEvents = eventsOf(t, "message");
      const flagsFor = (who: UserName, id: number) => messageEvents.find((e) => e.event.message && (e.event.message as { id: number }).id === id && e.userIds.includes(t.users[who].id))!.event.flags;
      assert.deepEqual(flagsFor("hamlet", channelMessage), ["read", "mentioned"]);
      assert.deepEqual(flagsFor("cordelia", channelMessage), []);
      assert.deepEqual(flagsFor("hamlet", direct), ["read"]);
      const fetched = (await t.as("hamlet").get("/events", { queue_id: queue, last_event_id: -1, dont_block: true })).body.events as Array<{ type: string; flags?: string[] }>;
      assert.deepEqual(fetched.filter((e) => e.type === "message").map((e) => e.flags), [["read", "mentioned"], ["read"]]);
      assert.deepEqual(await unreadIds("hamlet"), []);
      const unread = (await t.as("hamlet").post("/register", { fetch_event_types: ["update_message_flags", "message"] })).body.unread_msgs;
      assert.equal(unread.count, 0);
      assert.deepEqual(unread.mentions, []);
      // A message the muter reads anyway does not show them in the sender's read receipts (FL 143).
      assert.deepEqual((await t.as("othello").get(`/messages/${channelMessage}/read_receipts`)).body.user_ids, []);

      assert.equal((await unmute("hamlet", t.users.othello.id)).status, 200);
      const after = await sendDirect(t, "othello", ["hamlet"]);
      assert.deepEqual(await unreadIds("hamlet"), [after]);
    });

    it("mutes bots and deactivated users (FL 188), and anyone may mute", async () => {
      assert.equal((await mute("hamlet", t.users.bot.id)).status, 200);
      const gone = await addUser(t);
      assert.equal((await t.as("iago").delete(`/users/${gone.id}`)).status, 200);
      assert.equal((await mute("hamlet", gone.id)).status, 200);
      assert.equal((await unmute("hamlet", gone.id)).status, 200);
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => mute(who, t.users.cordelia.id));
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => unmute(who, t.users.cordelia.id));
    });

    it("refuses as Zulip does, changing nothing", async () => {
      assertError(await mute("hamlet", t.users.hamlet.id), "Cannot mute self");
      assert.equal((await mute("hamlet", t.users.othello.id)).status, 200);
      t.published.length = 0;
      assertError(await mute("hamlet", t.users.othello.id), "User already muted");
      assertError(await unmute("hamlet", t.users.cordelia.id), "User is not muted");
      assertError(await mute("hamlet", 999_999), "No such user");
      assertError(await unmute("hamlet", 999_999), "No such user");
      // An id that is not a number names no route, as Zulip's <int:…> path converter.
      assertError(await mute("hamlet", "abc" as unknown as number), "Not Found", "BAD_REQUEST", 404);
      assert.equal(t.published.length, 0);
      assert.deepEqual((await t.as("hamlet").post("/register", { fetch_event_types: ["muted_users"] })).body.muted_users.map((m: { id: number }) => m.id), [t.users.othello.id]);
    });
  });
}
