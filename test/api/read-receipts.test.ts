/**
 * A message's read receipts (Zulip's get-read-receipts, FL 137; muting rules FL 143), honouring
 * the realm's enable_read_receipts and each user's send_read_receipts, on every store.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { transaction } from "../../src/store/db.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { eventsOf, ids } from "../helpers/channels.js";
import { createChannel, sendDirect, sendToChannel, setUserSettings } from "../helpers/conversations.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`read receipts [${kind}]`, () => {
    let t: TestRealm;
    let message: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "lounge", ["hamlet", "othello", "cordelia", "iago", "bot", "shiva"]);
      message = await sendToChannel(t, "hamlet", "lounge", "news", "hello all");
    });
    afterEach(() => t.close());

    const markRead = async (who: UserName, op: "add" | "remove" = "add") => {
      const res = await t.as(who).post("/messages/flags", { messages: [message], op, flag: "read" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const receipts = async (who: UserName = "hamlet", id = message) => {
      const res = await t.as(who).get(`/messages/${id}/read_receipts`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.user_ids as number[];
    };
    const mute = (muter: UserName, muted: UserName) =>
      transaction(t.deps.store, async (tx) => {
        await tx.db.insertInto("muted_users").values({ user_id: t.users[muter].id, muted_user_id: t.users[muted].id, date_muted: 1 }).execute();
      });

    it("lists who read the message, never the sender, bots included", async () => {
      // The sender's own copy starts read; they are left out all the same.
      assert.deepEqual((await t.as("hamlet").get(`/messages/${message}/read_receipts`)).body, { result: "success", msg: "", user_ids: [] });
      await markRead("othello");
      await markRead("bot");
      await markRead("cordelia");
      assert.deepEqual(await receipts(), ids(t, "othello", "cordelia", "bot"));
      // The caller appears once they have read it.
      await markRead("iago");
      assert.deepEqual(await receipts("iago"), ids(t, "iago", "othello", "cordelia", "bot"));
      // Marking it unread again takes a reader out.
      await markRead("cordelia", "remove");
      assert.deepEqual(await receipts(), ids(t, "iago", "othello", "bot"));
    });

    it("leaves out users with send_read_receipts off, and deactivated users", async () => {
      await markRead("othello");
      await markRead("cordelia");
      await markRead("shiva");
      await setUserSettings(t, "cordelia", { send_read_receipts: false });
      assert.equal((await t.as("iago").delete(`/users/${t.users.shiva.id}`)).status, 200);
      assert.deepEqual(await receipts(), ids(t, "othello"));
      // Turning the setting off through the API works as well.
      assert.equal((await t.as("othello").patch("/settings", { send_read_receipts: false })).status, 200);
      assert.deepEqual(await receipts(), []);
    });

    it("hides readers who muted the caller, and readers the caller muted, from that caller only", async () => {
      await markRead("othello");
      await markRead("cordelia");
      await markRead("iago");
      await mute("othello", "hamlet");
      await mute("hamlet", "cordelia");
      assert.deepEqual(await receipts("hamlet"), ids(t, "iago"));
      await markRead("shiva");
      assert.deepEqual(await receipts("shiva"), ids(t, "shiva", "iago", "othello", "cordelia"));
    });

    it("refuses messages the caller cannot read, and then the realm's setting, in Zulip's order", async () => {
      await createChannel(t, "secret", ["othello"], { invite_only: true });
      const hidden = await sendToChannel(t, "othello", "secret", "t");
      const dm = await sendDirect(t, "othello", ["cordelia"]);
      for (const id of [hidden, dm, 999_999]) assertError(await t.as("hamlet").get(`/messages/${id}/read_receipts`), "Invalid message(s)");
      assert.equal((await t.as("hamlet").get("/messages/abc/read_receipts")).status, 404);

      assert.equal((await t.as("iago").patch("/realm", { enable_read_receipts: false })).status, 200);
      assertError(await t.as("hamlet").get(`/messages/${message}/read_receipts`), "Read receipts are disabled in this organization.");
      // A message the caller cannot read is still refused as such first.
      assertError(await t.as("hamlet").get(`/messages/${hidden}/read_receipts`), "Invalid message(s)");
      assert.equal((await t.as("iago").patch("/realm", { enable_read_receipts: true })).status, 200);
      assert.deepEqual(await receipts(), []);
    });

    it("answers anyone who can read the message: guests of a public channel they are in, bots", async () => {
      await markRead("othello");
      const guestChannel = await createChannel(t, "open house", ["polonius", "hamlet", "othello"]);
      assert.ok(guestChannel > 0);
      const forGuest = await sendToChannel(t, "hamlet", "open house", "t");
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], async (who) => {
        // Everyone in the cast but the guest can read the lounge message (public history); the guest reads its own channel.
        return t.as(who).get(`/messages/${who === "polonius" ? forGuest : message}/read_receipts`);
      });
      assertError(await t.as("polonius").get(`/messages/${message}/read_receipts`), "Invalid message(s)");
    });

    it("lets administrators turn the realm setting off and on, telling everyone, and reports it in register", async () => {
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_enable_read_receipts, true);
      assertError(await t.as("hamlet").patch("/realm", { enable_read_receipts: false }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      t.published.length = 0;
      assert.equal((await t.as("iago").patch("/realm", { enable_read_receipts: false })).status, 200);
      const [event] = eventsOf(t, "realm", "update");
      assert.deepEqual(event.event, { type: "realm", op: "update", property: "enable_read_receipts", value: false });
      assert.ok(event.userIds.includes(t.users.hamlet.id));
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_enable_read_receipts, false);
      // Setting the same value again changes nothing and tells nobody.
      t.published.length = 0;
      assert.equal((await t.as("iago").patch("/realm", { enable_read_receipts: false })).status, 200);
      assert.equal(eventsOf(t, "realm").length, 0);
    });
  });
}
