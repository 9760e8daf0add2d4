/**
 * State equivalence for scheduled messages and reminders (FL 179, 181, 399): a client applying
 * the scheduled_messages and reminders events to its register state holds what a fresh register
 * returns, through creation, edits, deletion, delivery and failure. They reach only their owner;
 * a delivery reaches its recipients as an ordinary message.
 */
import { after, before, describe, it } from "node:test";
import { deliverDue } from "../../src/actions/messages/scheduled-delivery.js";
import { createTestRealm, type ApiResponse, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { ensureNotificationBot, verifyAction } from "./verify-action.js";

const HOUR = 3600;

for (const kind of STORE_KINDS) {
  describe(`state equivalence: scheduled messages and reminders [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello"]);
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    /** The server's delivery, as an action of the harness. */
    const deliver = async (): Promise<ApiResponse> => ({ status: 200, body: { attempted: await deliverDue(t.deps, 10) }, headers: {} });
    const schedule = (content: string, inSeconds: number) => () =>
      t.as("hamlet").post("/scheduled_messages", { type: "stream", to: verona, topic: "later", content, scheduled_delivery_timestamp: t.clock.seconds + inSeconds });

    it("scheduled messages: add, edit, delete reach only their owner", async () => {
      const events = await verifyAction(t, ["hamlet", "othello"], schedule("second", 2 * HOUR), { expect: { hamlet: ["scheduled_messages/add"], othello: [] } });
      const id = events.hamlet[0].scheduled_messages[0].scheduled_message_id as number;
      await verifyAction(t, ["hamlet"], schedule("first", HOUR), { expect: { hamlet: ["scheduled_messages/add"] } });
      // Moved before the other one: the list stays in delivery order.
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").patch(`/scheduled_messages/${id}`, { content: "now first", scheduled_delivery_timestamp: t.clock.seconds + 60 }), {
        expect: { hamlet: ["scheduled_messages/update"] },
      });
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").delete(`/scheduled_messages/${id}`), { expect: { hamlet: ["scheduled_messages/remove"], othello: [] } });
    });

    it("delivery: the message to its recipients, the removal to its owner; a failure to its owner", async () => {
      // The one left by the test above falls due.
      t.clock.seconds += HOUR;
      // Sending starts the topic "later", which its sender then follows (FL 214).
      await verifyAction(t, ["hamlet", "othello"], deliver, {
        expect: { hamlet: ["message", "muted_topics", "user_topic", "scheduled_messages/remove"], othello: ["message"] },
      });
      // Past Zulip's late cutoff: marked failed (an update), and Notification Bot's notice.
      await verifyAction(t, ["hamlet"], schedule("doomed", 60), { expect: { hamlet: ["scheduled_messages/add"] } });
      t.clock.seconds += 60 + 601;
      await verifyAction(t, ["hamlet", "othello"], deliver, { expect: { hamlet: ["scheduled_messages/update", "message"], othello: [] } });
    });

    it("reminders: add, delete, delivery as Notification Bot's message", async () => {
      const messageId = await sendToChannel(t, "othello", "Verona", "castle", "remember me");
      const remind = () => t.as("hamlet").post("/reminders", { message_id: messageId, scheduled_delivery_timestamp: t.clock.seconds + HOUR, note: "soon" });
      const events = await verifyAction(t, ["hamlet", "othello"], remind, { expect: { hamlet: ["reminders/add"], othello: [] } });
      const id = events.hamlet[0].reminders[0].reminder_id as number;
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").delete(`/reminders/${id}`), { expect: { hamlet: ["reminders/remove"] } });
      await verifyAction(t, ["hamlet"], remind, { expect: { hamlet: ["reminders/add"] } });
      t.clock.seconds += HOUR;
      await verifyAction(t, ["hamlet", "othello"], deliver, { expect: { hamlet: ["message", "reminders/remove"], othello: [] } });
    });
  });
}
