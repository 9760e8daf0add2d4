/**
 * Message reports (Zulip's report-message, FL 382/435) and the realm's moderation request channel
 * (FL 331), on every store: the setting in PATCH /realm, register and events; the report Notification
 * Bot posts, worded as zerver/lib/message_report.py (its tests spell out each form); the
 * reporter's confirmation; and the refusals in Zulip's order.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { realmUrl } from "../../src/lib/realm-url.js";
import { NOTIFICATION_BOT_EMAIL } from "../../src/policy/system-bots.js";
import { readTx } from "../../src/store/db.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`message reports [${kind}]`, () => {
    let t: TestRealm;
    let moderation: number;
    let denmark: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      moderation = await createChannel(t, "reported messages", ["iago", "shiva"], { invite_only: true });
      denmark = await createChannel(t, "Denmark", ["hamlet", "othello", "cordelia", "polonius", "bot", "shiva"]);
      assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: moderation })).status, 200);
    });
    afterEach(() => t.close());

    const m = (who: UserName) => `@_**${t.users[who].fullName}|${t.users[who].id}**`;
    const report = (who: UserName, id: number, params: Record<string, unknown>) => t.as(who).post(`/messages/${id}/report`, params);
    const url = () => realmUrl(t.deps.config.externalHost, t.subdomain);
    const fromBot = [{ operator: "is", operand: "dm" }, { operator: "sender", operand: NOTIFICATION_BOT_EMAIL }];
    /** The newest message of a conversation as `who` sees it. */
    const newest = async (who: UserName, narrow: unknown[]) => {
      const res = await t.as(who).get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow, apply_markdown: false, allow_empty_topic_name: true });
      return res.body.messages[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const lastReport = () => newest("iago", [{ operator: "channel", operand: moderation }]);
    const time = (seconds: number) => `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00")}>`;

    it("keeps the setting: a private channel or -1, in register and a realm event to everyone", async () => {
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_moderation_request_channel_id, moderation);
      t.published.length = 0;
      assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: -1 })).status, 200);
      const [event] = eventsOf(t, "realm");
      assert.deepEqual(event.event, { type: "realm", op: "update", property: "moderation_request_channel_id", value: -1 });
      assert.ok(event.userIds.includes(t.users.polonius.id));
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_moderation_request_channel_id, -1);
      assertError(await t.as("iago").patch("/realm", { moderation_request_channel_id: denmark }), "Moderation request channel must be private.");
      assertError(await t.as("iago").patch("/realm", { moderation_request_channel_id: 999_999 }), "Invalid channel ID");
      assertError(await t.as("hamlet").patch("/realm", { moderation_request_channel_id: moderation }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: moderation })).status, 200);
      // The channel must stay private while it holds the setting, and archiving it unsets it.
      assertError(await t.as("iago").patch(`/streams/${moderation}`, { is_private: false }), "Moderation request channel must be private.");
      assert.equal((await t.as("iago").delete(`/streams/${moderation}`)).status, 200);
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_moderation_request_channel_id, -1);
    });

    it("posts a channel message's report by Notification Bot in the reported user's topic, and confirms to the reporter", async () => {
      const id = await sendToChannel(t, "othello", "Denmark", "civilized discussions", "I squeeze toothpaste from the middle");
      const sentAt = t.clock.now();
      t.published.length = 0;
      assert.deepEqual((await report("hamlet", id, { report_type: "harassment", description: "this is crime against food" })).body, { result: "success", msg: "" });
      const posted = await lastReport();
      assert.equal(posted.sender_email, NOTIFICATION_BOT_EMAIL);
      assert.equal(posted.subject, "Othello, the Moor of Venice moderation");
      assert.equal(
        posted.content,
        `${m("hamlet")} reported a message sent by ${m("othello")} at ${time(sentAt)}.\n` +
          "```quote\n**Harassment**. this is crime against food\n```\n\n" +
          `\`\`\` spoiler Original message at #**Denmark>civilized discussions@${id}**\n` +
          "I squeeze toothpaste from the middle\n```",
      );
      const rendered = (await t.as("iago").get(`/messages/${posted.id}`)).body.message.content as string;
      assert.ok(rendered.includes(`<a class="message-link" href="/#narrow/channel/${denmark}-Denmark/topic/civilized.20discussions/near/${id}">`), rendered);
      // Only the moderation channel's subscribers see the report.
      assert.ok(eventsOf(t, "message").every((e) => !e.userIds.includes(t.users.othello.id)));

      const confirmation = await newest("hamlet", fromBot);
      assert.equal(confirmation.content, `You reported [a message](${url()}/#narrow/channel/${denmark}-Denmark/topic/civilized.20discussions/near/${id}) for harassment.`);

      // A channel that allows only the empty topic gets the report there.
      const quiet = await createChannel(t, "moderators", ["iago"], { invite_only: true });
      const policy = await t.as("iago").patch(`/streams/${quiet}`, { topics_policy: "empty_topic_only" });
      assert.equal(policy.status, 200, JSON.stringify(policy.body));
      assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: quiet })).status, 200);
      assert.equal((await report("hamlet", id, { report_type: "spam" })).status, 200);
      const second = await newest("iago", [{ operator: "channel", operand: quiet }]);
      assert.equal(second.subject, "");
      assert.ok((second.content as string).includes("```quote\n**Spam**. \n```"));
    });

    it("words direct message reports as Zulip: to whom, one's own message, a note to self, a group", async () => {
      const dm = await sendDirect(t, "othello", ["hamlet"], "I dip fries in ice cream");
      assert.equal((await report("hamlet", dm, { report_type: "norms", description: "eww" })).status, 200);
      let posted = await lastReport();
      const dmUrl = (ids: UserName[], id: number) => `${url()}/#narrow/dm/${ids.map((u) => t.users[u].id).sort((a, b) => a - b).join(",")}/near/${id}`;
      assert.equal(
        posted.content,
        `${m("hamlet")} reported a message sent by ${m("othello")} at ${time(t.clock.now())}.\n` +
          "```quote\n**Violates community norms**. eww\n```\n\n" +
          `\`\`\` spoiler [Original message](${dmUrl(["hamlet", "othello"], dm)})\nI dip fries in ice cream\n\`\`\``,
      );
      assert.ok((await report("othello", dm, { report_type: "spam" })).status === 200);
      posted = await lastReport();
      assert.ok((posted.content as string).startsWith(`${m("othello")} reported a message sent by ${m("othello")} to ${m("hamlet")} at `));
      const self = await sendDirect(t, "othello", ["othello"], "Hi, me!");
      assert.ok((await report("othello", self, { report_type: "spam" })).status === 200);
      assert.ok(((await lastReport()).content as string).startsWith(`${m("othello")} reported a message sent by ${m("othello")} to ${m("othello")} at `));
      const group = await sendDirect(t, "othello", ["hamlet", "cordelia", "iago"], "I eat cereal with water");
      assert.ok((await report("hamlet", group, { report_type: "inappropriate", description: "Call the police" })).status === 200);
      posted = await lastReport();
      assert.ok((posted.content as string).startsWith(`${m("hamlet")} reported a message sent by ${m("othello")} to ${m("iago")}, ${m("hamlet")}, and ${m("cordelia")} at `), posted.content);
      assert.ok((posted.content as string).includes(`[Original message](${dmUrl(["hamlet", "othello", "cordelia", "iago"], group)})`));
      assert.equal((await newest("hamlet", fromBot)).content,
        `You reported [a message](${dmUrl(["hamlet", "othello", "cordelia", "iago"], group)}) for inappropriate content.`);
    });

    it("fences the quote past the message's own fences and cuts a long message", async () => {
      const fenced = await sendToChannel(t, "othello", "Denmark", "code", "````\n```\nnested\n```\n````");
      assert.equal((await report("hamlet", fenced, { report_type: "spam" })).status, 200);
      assert.ok(((await lastReport()).content as string).includes("\n````` spoiler Original message at"));
      const long = await sendToChannel(t, "othello", "Denmark", "long", "x".repeat(10_000));
      assert.equal((await report("hamlet", long, { report_type: "spam" })).status, 200);
      const content = (await lastReport()).content as string;
      assert.ok(content.includes(`${"x".repeat(8500 - 20)}\n[message truncated]\n\`\`\``));
      assert.ok(!content.includes("x".repeat(8500 - 19)));
    });

    it("refuses in Zulip's order, posting nothing", async () => {
      const id = await sendToChannel(t, "othello", "Denmark", "t");
      await createChannel(t, "secret", ["othello"], { invite_only: true });
      const hidden = await sendToChannel(t, "othello", "secret", "x");
      const before = t.published.length;
      const messageCount = async () => Number((await readTx(t.deps.store).db.selectFrom("messages").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      const countBefore = await messageCount();
      assertError(await report("hamlet", id, { report_type: "rude" }), "Invalid report_type", "REQUEST_VARIABLE_INVALID");
      assertError(await report("hamlet", id, {}), "Missing 'report_type' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await report("hamlet", id, { report_type: "spam", description: "d".repeat(1001) }), "description is too long (limit: 1000 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await report("hamlet", id, { report_type: "other" }), "An explanation is required.");
      assertError(await report("hamlet", hidden, { report_type: "spam" }), "Invalid message(s)");
      assertError(await report("hamlet", 999_999, { report_type: "spam" }), "Invalid message(s)");
      assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: -1 })).status, 200);
      const disabledAt = t.published.length;
      assertError(await report("hamlet", id, { report_type: "spam" }), "Message reporting is not enabled in this organization.");
      assert.equal(t.published.length, disabledAt);
      assert.equal(eventsOf(t, "message", undefined, before).length, 0);
      assert.equal(await messageCount(), countBefore);
      // "other" with an explanation is fine.
      assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: moderation })).status, 200);
      assert.equal((await report("hamlet", id, { report_type: "other", description: "because" })).status, 200);
    });

    it("lets anyone who can read the message report it, guests and bots included", async () => {
      const id = await sendToChannel(t, "othello", "Denmark", "t");
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => report(who, id, { report_type: "spam" }));
    });
  });
}
