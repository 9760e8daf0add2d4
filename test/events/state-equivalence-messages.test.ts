/**
 * State equivalence for sending messages (issue 5): register → send → apply events == fresh
 * register, for the sender, the recipients and people who must hear nothing (non-subscribers of a
 * private channel, users outside a direct message).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { MODERN_CAPABILITIES, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: sending messages [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet", "othello", "polonius"]);
      await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true });
    });
    after(() => t.close());

    const send = (params: Record<string, unknown>) => () => t.as("hamlet").post("/messages", params);

    it("a channel message reaches subscribers only; the first one sets first_message_id for everyone who sees the channel", async () => {
      await createChannel(t, "Fresh", ["hamlet", "othello"]);
      await verifyAction(t, ["hamlet", "othello", "cordelia", "polonius"], send({ type: "stream", to: "Fresh", topic: "news", content: "hello" }), {
        // The sender starts the topic, so follows it (automatically_follow_topics_policy, FL 214).
        expect: { hamlet: ["message", "muted_topics", "user_topic"], othello: ["message"], cordelia: ["stream/update"], polonius: [] },
      });
      await verifyAction(t, ["hamlet", "othello"], send({ type: "stream", to: "Fresh", topic: "News", content: "again" }), {
        expect: { hamlet: ["message"], othello: ["message"] },
      });
    });

    it("mentions land in unread_msgs.mentions of the mentioned user, wildcards of everyone", async () => {
      await verifyAction(t, ["hamlet", "othello", "iago"], send({ type: "stream", to: "Verona", topic: "t", content: "hi @**Othello, the Moor of Venice**" }), {
        // Othello, mentioned, follows the topic too (automatically_follow_topics_where_mentioned, FL 235).
        expect: { hamlet: ["message", "muted_topics", "user_topic"], othello: ["message", "muted_topics", "user_topic"], iago: ["message"] },
      });
      await verifyAction(t, ["othello", "polonius"], send({ type: "stream", to: "Verona", topic: "t", content: "@**all** listen" }));
      await verifyAction(t, ["othello", "iago"], send({ type: "stream", to: "Verona", topic: "", content: "@**topic** in general chat" }));
    });

    it("a private channel message never reaches non-subscribers; administrators learn only first_message_id", async () => {
      await verifyAction(t, ["hamlet", "iago", "othello", "desdemona", "polonius"], send({ type: "stream", to: "Secret", topic: "plot", content: "psst" }), {
        expect: { hamlet: ["message", "muted_topics", "user_topic"], iago: ["message"], othello: [], desdemona: ["stream/update"], polonius: [] },
      });
      await verifyAction(t, ["hamlet", "desdemona", "othello"], send({ type: "stream", to: "Secret", topic: "plot", content: "again" }), {
        expect: { hamlet: ["message"], desdemona: [], othello: [] },
      });
    });

    it("a direct message reaches its two participants only", async () => {
      await verifyAction(t, ["hamlet", "othello", "cordelia", "iago"], send({ type: "direct", to: [t.users.othello.id], content: "dm" }), {
        expect: { hamlet: ["message"], othello: ["message"], cordelia: [], iago: [] },
      });
    });

    it("a group direct message reaches its participants only, filed under the group", async () => {
      const to = [t.users.othello.id, t.users.cordelia.id];
      await verifyAction(t, ["hamlet", "othello", "cordelia", "iago"], send({ type: "direct", to, content: "group" }), {
        expect: { hamlet: ["message"], othello: ["message"], cordelia: ["message"], iago: [] },
      });
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("cordelia").post("/messages", { type: "direct", to: [t.users.hamlet.id, t.users.othello.id], content: "reply @**King Hamlet**" }));
    });

    it("a direct message to oneself", async () => {
      await verifyAction(t, ["hamlet", "othello"], send({ type: "direct", to: [t.users.hamlet.id], content: "note to self" }), {
        expect: { hamlet: ["message"], othello: [] },
      });
    });

    it("clients without empty_topic_name see the empty topic as its display name, in state and events alike", async () => {
      const legacy = { register: { client_capabilities: { ...MODERN_CAPABILITIES, empty_topic_name: false } } };
      const events = await verifyAction(t, ["othello", "iago"], send({ type: "stream", to: "Verona", topic: "", content: "general" }), legacy);
      assert.equal(events.othello[0].message.subject, "general chat");
      const id = events.othello[0].message.id as number;
      await t.as("othello").post("/messages/flags", { messages: [id], op: "add", flag: "read" });
      const unread = await verifyAction(t, ["othello"], () => t.as("othello").post("/messages/flags", { messages: [id], op: "remove", flag: "read" }), legacy);
      assert.equal(unread.othello[0].message_details[String(id)].topic, "general chat");
      const verona = (await t.as("othello").get("/get_stream_id", { stream: "Verona" })).body.stream_id;
      const muted = await verifyAction(t, ["othello"], () => t.as("othello").post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 1 }), legacy);
      assert.equal(muted.othello.find((e) => e.type === "user_topic")?.topic_name, "general chat");
    });

    it("a message from a bot and one by the notification path keep every viewer consistent", async () => {
      await verifyAction(t, ["othello", "hamlet"], () => t.as("bot").post("/messages", { type: "direct", to: [t.users.othello.id], content: "beep" }), {
        expect: { othello: ["message"], hamlet: [] },
      });
    });
  });
}
