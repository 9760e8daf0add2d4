/**
 * State equivalence for editing, moving and deleting messages (issue 5): update_message moves
 * unread messages between topics and channels, a content edit can add a mention, delete_message
 * drops unread and starred messages; users who lose access to moved messages get delete_message
 * and users who never had access hear nothing.
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: editing, moving, deleting [${kind}]`, () => {
    let t: TestRealm;
    let secretId: number;
    let otherId: number;
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet", "othello", "cordelia"]);
      otherId = await createChannel(t, "Denmark", ["iago", "hamlet", "othello"]);
      secretId = await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true });
    });
    after(() => t.close());

    const patch = (id: number, params: Record<string, unknown>) => () => t.as("hamlet").patch(`/messages/${id}`, params);

    it("a content edit that adds a mention updates the mentioned user's unread mentions", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "edits", "plain");
      await verifyAction(t, ["hamlet", "othello", "polonius"], patch(id, { content: "now @**Othello, the Moor of Venice**" }), {
        expect: { hamlet: ["update_message"], othello: ["update_message"], polonius: [] },
      });
      await verifyAction(t, ["othello"], patch(id, { content: "plain again" }), { expect: { othello: ["update_message"] } });
    });

    it("a topic rename moves unread messages to the new topic (one message, later ones, the whole topic)", async () => {
      const first = await sendToChannel(t, "hamlet", "Verona", "old", "one");
      await sendToChannel(t, "hamlet", "Verona", "old", "two");
      const third = await sendToChannel(t, "hamlet", "Verona", "old", "three");
      await verifyAction(t, ["othello", "cordelia"], patch(third, { topic: "split", propagate_mode: "change_one" }));
      await verifyAction(t, ["othello", "hamlet"], patch(first, { topic: "", propagate_mode: "change_later", send_notification_to_old_thread: false }));
      await verifyAction(t, ["othello", "cordelia", "hamlet"], patch(first, { topic: "renamed", propagate_mode: "change_all" }));
    });

    it("moving a topic to another channel moves unread messages; subscribers of the old channel only lose their rows", async () => {
      await sendToChannel(t, "hamlet", "Verona", "travel", "going");
      const id = await sendToChannel(t, "hamlet", "Verona", "travel", "gone");
      // Cordelia (not subscribed to Denmark) keeps access but loses her rows, newest included:
      // her max_message_id drops server-side, as in Zulip, which no event reports.
      await verifyAction(t, ["othello", "cordelia", "hamlet", "polonius"], patch(id, { stream_id: otherId, propagate_mode: "change_all" }), {
        expect: { cordelia: ["update_message", "update_message_flags", "stream"], polonius: [] },
        serverRecomputed: ["max_message_id"],
      });
    });

    it("moving into a private channel: those who lose access get delete_message, none leaks to outsiders", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "to hide", "secret soon");
      const events = await verifyAction(t, ["othello", "cordelia", "hamlet", "desdemona"], patch(id, { stream_id: secretId, propagate_mode: "change_all", send_notification_to_new_thread: false, send_notification_to_old_thread: false }), {
        // Hamlet follows the topic he started (FL 214); the follow moves with it (user_topic: cleared, then set).
        expect: {
          othello: ["delete_message"], cordelia: ["delete_message"],
          hamlet: ["update_message", "stream/update", "muted_topics", "user_topic", "muted_topics", "user_topic"],
        },
        // The moved message was the newest Othello and Cordelia had (see the delete tests below).
        serverRecomputed: ["max_message_id"],
      });
      if (events.desdemona.some((e) => e.type === "update_message")) throw new Error("a non-subscriber got the moved message");
    });

    it("edits and deletions in a private channel reach no outsider, administrators included", async () => {
      await sendToChannel(t, "iago", "Secret", "plot", "first");
      const id = await sendToChannel(t, "hamlet", "Secret", "plot", "scheme");
      const outsiders = { othello: [], desdemona: [], polonius: [] };
      await verifyAction(t, ["iago", "othello", "desdemona", "polonius"], patch(id, { content: "better scheme", topic: "plans" }), { expect: { iago: ["update_message", "message"], ...outsiders } });
      await verifyAction(t, ["iago", "othello", "desdemona"], () => t.as("hamlet").delete(`/messages/${id}`), { expect: { iago: ["delete_message"], othello: [], desdemona: [] } });
    });

    it("deleting a message drops it from unread and starred; others hear nothing", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "doomed", "bye");
      await sendToChannel(t, "hamlet", "Verona", "doomed", "stays");
      await t.as("othello").post("/messages/flags", { messages: [id], op: "add", flag: "starred" });
      await verifyAction(t, ["othello", "hamlet", "polonius"], () => t.as("iago").delete(`/messages/${id}`), {
        expect: { othello: ["delete_message"], hamlet: ["delete_message"], polonius: [] },
      });
    });

    it("deleting a channel's first message moves first_message_id for everyone who sees the channel", async () => {
      await createChannel(t, "Brief", ["hamlet", "othello"]);
      const id = await sendToChannel(t, "hamlet", "Brief", "t", "first");
      await sendToChannel(t, "hamlet", "Brief", "t", "second");
      await verifyAction(t, ["othello", "cordelia", "polonius"], () => t.as("hamlet").delete(`/messages/${id}`), {
        expect: { othello: ["delete_message", "stream/update"], cordelia: ["stream/update"], polonius: [] },
      });
    });

    it("deleting the newest message: max_message_id is recomputed by the server, not derivable from events", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "doomed", "newest");
      await verifyAction(t, ["othello"], () => t.as("hamlet").delete(`/messages/${id}`), { serverRecomputed: ["max_message_id"] });
    });

    it("deleting a direct message reaches its participants only", async () => {
      const id = await sendDm(t, "hamlet", ["othello"], "oops");
      await sendDm(t, "hamlet", ["othello"], "keep");
      await verifyAction(t, ["hamlet", "othello", "cordelia"], () => t.as("hamlet").delete(`/messages/${id}`), {
        expect: { hamlet: ["delete_message"], othello: ["delete_message"], cordelia: [] },
      });
    });

    it("deleting the latest message of a direct conversation: recent_private_conversations is server-recomputed", async () => {
      await sendDm(t, "hamlet", ["othello"], "keep");
      const id = await sendDm(t, "hamlet", ["othello"], "latest");
      await verifyAction(t, ["othello"], () => t.as("hamlet").delete(`/messages/${id}`), {
        serverRecomputed: ["max_message_id", "recent_private_conversations"],
      });
    });
  });
}
