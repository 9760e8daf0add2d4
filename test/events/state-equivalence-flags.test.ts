/**
 * State equivalence for message flags, reactions and typing (issue 5): read/unread and starred
 * keep unread_msgs and starred_messages current; reactions and typing carry no register state
 * but must reach only those who can see the message or conversation.
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: flags, reactions, typing [${kind}]`, () => {
    let t: TestRealm;
    let veronaId: number;
    let secretId: number;
    before(async () => {
      t = await createTestRealm(kind);
      veronaId = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      secretId = await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true });
    });
    after(() => t.close());

    const flags = (params: Record<string, unknown>) => () => t.as("othello").post("/messages/flags", params);

    it("marking read and unread, channel and direct messages, mentions included", async () => {
      const channelMsg = await sendToChannel(t, "hamlet", "Verona", "flags", "hey @**Othello, the Moor of Venice**");
      const dm = await sendDm(t, "hamlet", ["othello"], "dm");
      const group = await sendDm(t, "hamlet", ["othello", "cordelia"], "group");
      const messages = [channelMsg, dm, group];
      await verifyAction(t, ["othello", "hamlet"], flags({ messages, op: "add", flag: "read" }), {
        expect: { othello: ["update_message_flags"], hamlet: [] },
      });
      await verifyAction(t, ["othello", "hamlet"], flags({ messages, op: "remove", flag: "read" }), {
        expect: { othello: ["update_message_flags"], hamlet: [] },
      });
    });

    it("starring and unstarring", async () => {
      const id = await sendToChannel(t, "hamlet", "Verona", "flags", "star me");
      await verifyAction(t, ["othello"], flags({ messages: [id], op: "add", flag: "starred" }), { expect: { othello: ["update_message_flags"] } });
      await verifyAction(t, ["othello"], flags({ messages: [id], op: "remove", flag: "starred" }), { expect: { othello: ["update_message_flags"] } });
    });

    it("mark all, channel, topic and narrow as read", async () => {
      await sendToChannel(t, "hamlet", "Verona", "bulk", "one");
      await sendToChannel(t, "hamlet", "Verona", "other", "two");
      await sendDm(t, "hamlet", ["othello"], "three");
      await verifyAction(t, ["othello"], () => t.as("othello").post("/mark_topic_as_read", { stream_id: veronaId, topic_name: "bulk" }));
      await verifyAction(t, ["othello"], () => t.as("othello").post("/mark_stream_as_read", { stream_id: veronaId }));
      await sendToChannel(t, "hamlet", "Verona", "bulk", "four");
      await verifyAction(t, ["othello", "hamlet"], () => t.as("othello").post("/mark_all_as_read"), { expect: { hamlet: [] } });
      await sendToChannel(t, "hamlet", "Verona", "bulk", "five");
      await verifyAction(t, ["othello"], () =>
        t.as("othello").post("/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 100, narrow: [{ operator: "channel", operand: veronaId }], op: "add", flag: "read" }),
      );
    });

    it("reactions reach those who can see the message, never outsiders of a private channel", async () => {
      const id = await sendToChannel(t, "hamlet", "Secret", "r", "react");
      const add = () => t.as("iago").post(`/messages/${id}/reactions`, { emoji_name: "smile" });
      await verifyAction(t, ["hamlet", "iago", "othello", "desdemona"], add, { expect: { hamlet: ["reaction/add"], iago: ["reaction/add"], othello: [], desdemona: [] } });
      const remove = () => t.as("iago").delete(`/messages/${id}/reactions`, { emoji_name: "smile" });
      await verifyAction(t, ["hamlet", "othello"], remove, { expect: { hamlet: ["reaction/remove"], othello: [] } });
      const dm = await sendDm(t, "hamlet", ["othello"], "react to me");
      await verifyAction(t, ["hamlet", "othello", "cordelia"], () => t.as("othello").post(`/messages/${dm}/reactions`, { emoji_name: "heart" }), {
        expect: { hamlet: ["reaction"], othello: ["reaction"], cordelia: [] },
      });
    });

    it("typing reaches the conversation only, channel typing the channel's subscribers", async () => {
      await verifyAction(t, ["othello", "cordelia", "hamlet"], () => t.as("hamlet").post("/typing", { op: "start", to: [t.users.othello.id] }), {
        expect: { othello: ["typing/start"], hamlet: ["typing/start"], cordelia: [] },
      });
      const typing = () => t.as("hamlet").post("/typing", { type: "channel", op: "stop", stream_id: secretId, topic: "plot" });
      await verifyAction(t, ["iago", "othello", "desdemona"], typing, { expect: { iago: ["typing/stop"], othello: [], desdemona: [] } });
    });
  });
}
