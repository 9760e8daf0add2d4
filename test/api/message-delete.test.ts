/** Deleting messages (DELETE /messages/{id}), on every store. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { archiveChannel, createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";
import { eventsOfType, groupId, setRealm, setRealmGroup } from "../helpers/edits.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`delete messages [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    const del = (as: UserName, id: number) => t.as(as).delete(`/messages/${id}`);
    const rowsFor = async (table: "reactions" | "message_edits" | "user_messages" | "messages", id: number) => {
      const q = readTx(t.deps.store).db.selectFrom(table).selectAll();
      return (table === "messages" ? q.where("id", "=", id) : q.where("message_id", "=", id)).execute();
    };

    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello", "cordelia"]);
    });
    after(() => t.close());
    beforeEach(async () => {
      await setRealm(t, { message_content_delete_limit_seconds: null });
      await setRealmGroup(t, "can_delete_own_message_group_id", "role:everyone");
      await setRealmGroup(t, "can_delete_any_message_group_id", "role:administrators");
    });

    it("lets the sender delete their message with everything attached, telling everyone who saw it", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "doomed", "bye");
      assert.equal((await t.as("othello").post(`/messages/${id}/reactions`, { emoji_name: "smile" })).status, 200);
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "bye!" })).status, 200);
      const from = t.published.length;
      const res = await del("hamlet", id);
      assert.deepEqual(res.body, { result: "success", msg: "" });
      for (const table of ["reactions", "message_edits", "user_messages", "messages"] as const) assert.deepEqual(await rowsFor(table, id), []);
      assertError(await t.as("hamlet").get(`/messages/${id}`), "Invalid message(s)");
      const events = eventsOfType(t, "delete_message", from);
      assert.equal(events.length, 1);
      assert.deepEqual(events[0].event, { type: "delete_message", message_ids: [id], message_type: "stream", stream_id: verona, topic: "doomed" });
      const ids: UserName[] = ["iago", "hamlet", "othello", "cordelia"];
      assert.deepEqual(events[0].userIds, ids.map((u) => t.users[u].id).sort((a, b) => a - b));
    });

    it("removes the message from search", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "search", "uniquewordxyz");
      assert.equal((await del("hamlet", id)).status, 200);
      const found = await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "search", operand: "uniquewordxyz" }] });
      assert.deepEqual(found.body.messages, []);
    });

    it("keeps members from deleting others' messages; administrators may", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "theirs", "x");
      assertError(await del("othello", id), "You don't have permission to delete this message");
      assertError(await del("shiva", id), "You don't have permission to delete this message");
      assert.equal((await del("iago", id)).status, 200);
    });

    it("follows can_delete_own_message_group, organization-wide or for the channel", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "own", "x");
      await setRealmGroup(t, "can_delete_own_message_group_id", "role:administrators");
      assertError(await del("hamlet", id), "You don't have permission to delete this message");
      const res = await t.as("iago").post("/channels/create", {
        name: "Scratch",
        subscribers: [t.users.hamlet.id, t.users.othello.id],
        can_delete_own_message_group: await groupId(t, "role:members"),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const there = await sendToChannel(t, "hamlet", "Scratch", "own", "x");
      assert.equal((await del("hamlet", there)).status, 200);
      const dm = await sendDirect(t, "hamlet", ["othello"], "x");
      assertError(await del("hamlet", dm), "You don't have permission to delete this message");
    });

    it("follows can_delete_any_message_group, organization-wide or for the channel", async () => {
      const id = await sendToChannel(t, "othello", "Verona", "any", "x");
      await setRealmGroup(t, "can_delete_any_message_group_id", "role:owners");
      assertError(await del("iago", id), "You don't have permission to delete this message");
      assert.equal((await del("desdemona", id)).status, 200);
      const res = await t.as("iago").post("/channels/create", {
        name: "Moderated",
        subscribers: [t.users.hamlet.id, t.users.othello.id, t.users.shiva.id],
        can_delete_any_message_group: await groupId(t, "role:moderators"),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const there = await sendToChannel(t, "othello", "Moderated", "t", "x");
      assertError(await del("hamlet", there), "You don't have permission to delete this message");
      assert.equal((await del("shiva", there)).status, 200);
    });

    it("enforces message_content_delete_limit_seconds for own messages, not for deleting any", async () => {
      await setRealm(t, { message_content_delete_limit_seconds: 60 });
      const id = await sendToChannel(t, "hamlet", "Verona", "limit", "x");
      t.clock.seconds += 61;
      assertError(await del("hamlet", id), "The time limit for deleting this message has passed");
      const fresh = await sendToChannel(t, "hamlet", "Verona", "limit", "y");
      t.clock.seconds += 60;
      assert.equal((await del("hamlet", fresh)).status, 200);
      assert.equal((await del("iago", id)).status, 200);
    });

    it("lets bot owners delete their bots' messages", async () => {
      const res = await t.as("bot").post("/messages", { type: "direct", to: [t.users.desdemona.id], content: "beep" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertError(await del("iago", res.body.id), "Invalid message(s)");
      assert.equal((await del("desdemona", res.body.id)).status, 200);
    });

    it("deletes direct messages for their participants only", async () => {
      const id = await sendDirect(t, "hamlet", ["cordelia"], "oops");
      const from = t.published.length;
      assert.equal((await del("hamlet", id)).status, 200);
      const [event] = eventsOfType(t, "delete_message", from);
      assert.deepEqual(event.event, { type: "delete_message", message_ids: [id], message_type: "private" });
      assert.deepEqual(event.userIds, [t.users.hamlet.id, t.users.cordelia.id].sort((a, b) => a - b));
    });

    it("hides missing and invisible messages alike, and archived channels' messages", async () => {
      const dm = await sendDirect(t, "othello", ["cordelia"], "private");
      const hidden = await del("hamlet", dm);
      assertError(hidden, "Invalid message(s)");
      assert.deepEqual(hidden.body, (await del("hamlet", 31415926)).body);
      const ruins = await createChannel(t, "Ruins", ["hamlet"]);
      const id = await sendToChannel(t, "hamlet", "Ruins", "t", "x");
      await archiveChannel(t, ruins);
      assertError(await del("hamlet", id), "Invalid message(s)");
    });
  });
}
