/**
 * State equivalence for issue 17's user tools: muting and unmuting a user (the muted_users list and
 * the unread messages muting marks read), navigation views, deleting a topic in batches (unread,
 * first_message_id, visibility policies), the moderation request channel setting, a message report
 * with its confirmation, and typing an edit (no state).
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: user tools [${kind}]`, () => {
    let t: TestRealm;
    let moderation: number;
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet", "othello", "cordelia"]);
      moderation = await createChannel(t, "Moderation", ["iago"], { invite_only: true });
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    it("muting a user marks their unread messages read; unmuting changes only the list", async () => {
      await sendToChannel(t, "othello", "Verona", "mute", "one");
      await sendDm(t, "othello", ["hamlet"], "two");
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").post(`/users/me/muted_users/${t.users.othello.id}`), {
        expect: { hamlet: ["update_message_flags", "muted_users"], othello: [] },
      });
      const send = () => t.as("othello").post("/messages", { type: "stream", to: "Verona", topic: "mute", content: "three" });
      await verifyAction(t, ["hamlet"], send, { expect: { hamlet: ["message"] } });
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").delete(`/users/me/muted_users/${t.users.othello.id}`), { expect: { hamlet: ["muted_users"] } });
    });

    it("navigation views: add, update, remove", async () => {
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").post("/navigation_views", { fragment: "narrow/is/followed", is_pinned: true, name: "Followed" }), {
        expect: { hamlet: ["navigation_view/add"], othello: [] },
      });
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").patch("/navigation_views/narrow/is/followed", { is_pinned: false, name: "Watching" }), {
        expect: { hamlet: ["navigation_view/update"] },
      });
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").delete("/navigation_views/narrow%2Fis%2Ffollowed"), { expect: { hamlet: ["navigation_view/remove"] } });
    });

    it("deleting a topic: unread messages, the channel's first message and visibility policies", async () => {
      const fresh = await createChannel(t, "Fresh", ["iago", "hamlet", "othello"]);
      await sendToChannel(t, "othello", "Fresh", "doomed", "first");
      await sendToChannel(t, "othello", "Fresh", "kept", "stays");
      await sendToChannel(t, "othello", "Fresh", "doomed", "second");
      await t.as("hamlet").post("/user_topics", { stream_id: fresh, topic: "doomed", visibility_policy: 3 });
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("iago").post(`/streams/${fresh}/delete_topic`, { topic_name: "doomed" }), {
        expect: { hamlet: ["delete_message", "stream", "muted_topics", "user_topic"], cordelia: ["stream"] },
        // The newest message went: Zulip recomputes max_message_id server-side too.
        serverRecomputed: ["max_message_id"],
      });
    });

    it("the moderation request channel setting, then a report and its confirmation", async () => {
      await verifyAction(t, ["hamlet", "iago"], () => t.as("iago").patch("/realm", { moderation_request_channel_id: moderation }), {
        expect: { hamlet: ["realm"], iago: ["realm"] },
      });
      const id = await sendToChannel(t, "othello", "Verona", "rude", "something rude");
      await verifyAction(t, ["hamlet", "iago", "othello"], () => t.as("hamlet").post(`/messages/${id}/report`, { report_type: "spam" }), {
        expect: { hamlet: ["message"], iago: ["message"], othello: [] },
      });
    });

    it("typing an edit changes no state", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "typing", "draft");
      await verifyAction(t, ["hamlet", "othello", "polonius"], () => t.as("hamlet").post(`/messages/${id}/typing`, { op: "start" }), {
        expect: { othello: ["typing_edit_message"], polonius: [] },
      });
    });
  });
}
