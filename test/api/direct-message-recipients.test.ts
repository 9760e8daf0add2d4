/**
 * Direct-message conversations as Zulip addresses them since feature level 482: every conversation
 * (1:1, to oneself, or a group) is a direct-message group, so both directions of a 1:1
 * conversation carry one `recipient_id` for every viewer (FL 327's promise). Narrows, unreads,
 * recent conversations and events read the same conversations; migration 0009 moves messages
 * stored the old way (on the addressee's personal recipient). On every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FLAG_BITS } from "../../src/lib/flags.js";
import { MESSAGE_TYPE } from "../../src/store/types.js";
import { RECIPIENT, getRecipientId, insertRecipient } from "../../src/store/channels.js";
import { transaction } from "../../src/store/db.js";
import { insertMessage, insertUserMessages } from "../../src/store/messages.js";
import { oneToOneDmGroups } from "../../src/store/migrations/0012_one_to_one_dm_groups.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { sendDirect } from "../helpers/conversations.js";
import { narrowIds } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`direct-message recipients [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    const message = async (viewer: UserName, id: number) => (await t.as(viewer).get(`/messages/${id}`)).body.message;
    const recipientOf = async (viewer: UserName, id: number): Promise<number> => (await message(viewer, id)).recipient_id;

    it("gives both directions of a 1:1 conversation one recipient_id, for both participants and in events", async () => {
      t.published.length = 0;
      const out = await sendDirect(t, "hamlet", ["othello"], "hi");
      const back = await sendDirect(t, "othello", ["hamlet"], "hello");
      const ids = await Promise.all([recipientOf("hamlet", out), recipientOf("hamlet", back), recipientOf("othello", out), recipientOf("othello", back)]);
      assert.equal(new Set(ids).size, 1, JSON.stringify(ids));
      const eventIds = t.published.filter((e) => e.event.type === "message").map((e) => (e.event.message as { recipient_id: number }).recipient_id);
      assert.deepEqual(eventIds, [ids[0], ids[0], ids[0], ids[0]]);
      // Another pair, a message to oneself and a group each have their own.
      const other = await recipientOf("hamlet", await sendDirect(t, "hamlet", ["cordelia"]));
      const self = await recipientOf("hamlet", await sendDirect(t, "hamlet", ["hamlet"]));
      const selfAgain = await recipientOf("hamlet", await sendDirect(t, "hamlet", ["hamlet"]));
      const group = await sendDirect(t, "hamlet", ["othello", "cordelia"]);
      const groupIds = await Promise.all([recipientOf("hamlet", group), recipientOf("othello", group), recipientOf("cordelia", group)]);
      assert.equal(new Set(groupIds).size, 1);
      assert.equal(self, selfAgain);
      assert.equal(new Set([ids[0], other, self, groupIds[0]]).size, 4);
      // display_recipient still lists the participants.
      assert.deepEqual(
        (await message("othello", out)).display_recipient.map((u: { id: number }) => u.id),
        [t.users.hamlet.id, t.users.othello.id].sort((a, b) => a - b),
      );
      assert.deepEqual((await message("hamlet", await sendDirect(t, "hamlet", ["hamlet"]))).display_recipient.map((u: { id: number }) => u.id), [t.users.hamlet.id]);
    });

    it("narrows, unreads and recent conversations see the same conversations", async () => {
      const a = await sendDirect(t, "iago", ["shiva"], "one");
      const b = await sendDirect(t, "shiva", ["iago"], "two");
      const self = await sendDirect(t, "iago", ["iago"], "note");
      const group = await sendDirect(t, "shiva", ["iago", "hamlet"], "three");
      assert.deepEqual(await narrowIds(t, "iago", [{ operator: "dm", operand: [t.users.shiva.id] }]), [a, b]);
      assert.deepEqual(await narrowIds(t, "shiva", [{ operator: "dm", operand: "iago@zulip.test" }]), [a, b]);
      assert.deepEqual(await narrowIds(t, "iago", [{ operator: "dm", operand: [t.users.iago.id] }]), [self]);
      assert.deepEqual(await narrowIds(t, "iago", [{ operator: "dm-including", operand: t.users.shiva.id }]), [a, b, group]);
      assert.deepEqual(await narrowIds(t, "iago", [{ operator: "group-pm-with", operand: t.users.shiva.id }]), [group]);
      assert.deepEqual(await narrowIds(t, "iago", [{ operator: "with", operand: b }]), [a, b]);

      const state = (await t.as("iago").post("/register", { fetch_event_types: ["message", "update_message_flags", "recent_private_conversations"] })).body;
      const pms = state.unread_msgs.pms.filter((p: { other_user_id: number }) => p.other_user_id === t.users.shiva.id);
      assert.deepEqual(pms, [{ other_user_id: t.users.shiva.id, sender_id: t.users.shiva.id, unread_message_ids: [b] }]);
      const groupKey = [t.users.iago.id, t.users.shiva.id, t.users.hamlet.id].sort((x, y) => x - y).join(",");
      assert.deepEqual(
        state.unread_msgs.huddles.filter((h: { user_ids_string: string }) => h.user_ids_string === groupKey),
        [{ user_ids_string: groupKey, unread_message_ids: [group] }],
      );
      const recent = state.recent_private_conversations.slice(0, 3);
      assert.deepEqual(recent, [
        { max_message_id: group, user_ids: [t.users.shiva.id, t.users.hamlet.id].sort((x, y) => x - y) },
        { max_message_id: self, user_ids: [] },
        { max_message_id: b, user_ids: [t.users.shiva.id] },
      ]);
    });

    it("migration 0009 moves 1:1 and self messages from personal recipients into the conversations' groups", async () => {
      // Messages as the previous schema stored them: addressed to the other user's personal recipient.
      const existing = await recipientOf("cordelia", await sendDirect(t, "cordelia", ["polonius"], "after the upgrade"));
      const legacy = await transaction(t.deps.store, async (tx) => {
        const personal = async (user: UserName) =>
          (await getRecipientId(tx, RECIPIENT.PERSONAL, t.users[user].id)) ?? insertRecipient(tx, RECIPIENT.PERSONAL, t.users[user].id);
        const write = async (sender: UserName, to: UserName) => {
          const id = await insertMessage(tx, {
            realm_id: t.realmId,
            sender_id: t.users[sender].id,
            recipient_id: await personal(to),
            type: MESSAGE_TYPE.DIRECT,
            subject: "",
            content: "old",
            rendered_content: "<p>old</p>",
            date_sent: 1,
          });
          const users = [...new Set([sender, to])];
          await insertUserMessages(tx, users.map((u) => ({ user_id: t.users[u].id, message_id: id, flags: u === sender ? FLAG_BITS.read : 0 })));
          return id;
        };
        return {
          toDesdemona: await write("polonius", "desdemona"),
          fromDesdemona: await write("desdemona", "polonius"),
          self: await write("polonius", "polonius"),
          toCordelia: await write("polonius", "cordelia"),
        };
      });
      await oneToOneDmGroups.up(t.deps.store.db, t.deps.store.dialect);
      const pair = await recipientOf("polonius", legacy.toDesdemona);
      assert.equal(await recipientOf("desdemona", legacy.fromDesdemona), pair);
      assert.equal(await recipientOf("polonius", legacy.toCordelia), existing, "joins the group made since");
      const self = await recipientOf("polonius", legacy.self);
      assert.equal(new Set([pair, existing, self]).size, 3);
      assert.deepEqual(await narrowIds(t, "desdemona", [{ operator: "dm", operand: [t.users.polonius.id] }]), [legacy.toDesdemona, legacy.fromDesdemona]);
      assert.deepEqual(await narrowIds(t, "polonius", [{ operator: "dm", operand: [t.users.polonius.id] }]), [legacy.self]);
      const sent = await sendDirect(t, "desdemona", ["polonius"], "new");
      assert.equal(await recipientOf("polonius", sent), pair, "new messages go to the migrated conversation");
      const state = (await t.as("polonius").post("/register", { fetch_event_types: ["message", "update_message_flags"] })).body;
      assert.deepEqual(
        state.unread_msgs.pms.find((p: { other_user_id: number }) => p.other_user_id === t.users.desdemona.id)?.unread_message_ids,
        [legacy.fromDesdemona, sent],
      );
    });
  });
}
