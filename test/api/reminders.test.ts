/**
 * Message reminders (Zulip's create-message-reminder, get-reminders, delete-reminder; FL 381, 399,
 * 415), on every store: the reminder text as Zulip writes it (its test_reminders.py cases, in our
 * words), the note, the owner-only rule, register and events, and delivery as Notification Bot's
 * direct message on the schedule, written again from the message as it then is.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LATE_CUTOFF_SECONDS, deliverDue } from "../../src/actions/messages/scheduled-delivery.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const HOUR = 3600;
const REALM_URL = "https://zulip.testserver.local:9991";

for (const kind of STORE_KINDS) {
  describe(`message reminders [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello", "iago"]);
    });
    afterEach(() => t.close());

    const remind = async (messageId: number, extra: Record<string, unknown> = {}, who: UserName = "hamlet") => {
      const res = await t.as(who).post("/reminders", { message_id: messageId, scheduled_delivery_timestamp: t.clock.seconds + HOUR, ...extra });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.reminder_id as number;
    };
    const stored = async (who: UserName = "hamlet") => (await t.as(who).get("/reminders")).body.reminders as Array<Record<string, unknown>>;
    const mention = (who: UserName) => `@_**${t.users[who].fullName}|${t.users[who].id}**`;
    const dmUrl = (ids: number[], messageId: number) => `${REALM_URL}/#narrow/dm/${[...ids].sort((a, b) => a - b).join(",")}/near/${messageId}`;

    it("schedules a reminder of a channel message with Zulip's text, shown to its owner only", async () => {
      const messageId = await sendToChannel(t, "othello", "Verona", "castle", "Meet at the gate");
      t.published.length = 0;
      const id = await remind(messageId);
      const text =
        "You requested a reminder for the following message.\n\n" +
        `${mention("othello")} [said](${REALM_URL}/#narrow/channel/${verona}-Verona/topic/castle/near/${messageId}) ` +
        `in [#Verona > castle](#narrow/channel/${verona}-Verona/topic/castle/with/${messageId}):\n` +
        "```quote\nMeet at the gate\n```";
      const [reminder] = await stored();
      assert.deepEqual({ ...reminder, rendered_content: undefined }, {
        reminder_id: id,
        type: "private",
        to: [t.users.hamlet.id],
        content: text,
        rendered_content: undefined,
        scheduled_delivery_timestamp: t.clock.seconds + HOUR,
        failed: false,
        reminder_target_message_id: messageId,
      });
      assert.match(reminder.rendered_content as string, /<blockquote>\n<p>Meet at the gate<\/p>\n<\/blockquote>/);
      assert.deepEqual(eventsOf(t, "reminders", "add").map((e) => [e.event, e.userIds]), [[{ type: "reminders", op: "add", reminders: [reminder] }, [t.users.hamlet.id]]]);
      assert.deepEqual(await stored("othello"), []);
      assert.deepEqual((await t.as("hamlet").post("/register", { fetch_event_types: ["reminders"] })).body.reminders, [reminder]);
      assert.deepEqual((await t.as("hamlet").get("/scheduled_messages")).body.scheduled_messages, [], "not a scheduled message");
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.max_reminder_note_length, 1000);
    });

    it("names direct messages' recipients, notes to oneself, polls and to-do lists as Zulip does", async () => {
      const toOthello = await sendDm(t, "hamlet", ["othello"], "psst");
      const group = await sendDm(t, "othello", ["hamlet", "cordelia"], "all three");
      const note = await sendDm(t, "hamlet", ["hamlet"], "buy milk");
      const poll = await sendDm(t, "hamlet", ["hamlet"], "/poll Lunch?");
      const todo = await sendDm(t, "othello", ["hamlet"], "/todo Chores");
      for (const id of [toOthello, group, note, poll, todo]) await remind(id);
      const intro = "You requested a reminder for the following direct message.\n\n";
      const { hamlet, othello, cordelia } = t.users;
      assert.deepEqual((await stored()).map((r) => r.content), [
        `${intro}${mention("hamlet")} [said](${dmUrl([hamlet.id, othello.id], toOthello)}) to ${mention("othello")}:\n\`\`\`quote\npsst\n\`\`\``,
        // The other participants by id, in an English list.
        `${intro}${mention("othello")} [said](${dmUrl([hamlet.id, othello.id, cordelia.id], group)}) to ${mention("hamlet")} and ${mention("cordelia")}:\n\`\`\`quote\nall three\n\`\`\``,
        `${intro}You [sent](${dmUrl([hamlet.id], note)}) a note to yourself:\n\`\`\`quote\nbuy milk\n\`\`\``,
        `${intro}You [sent](${dmUrl([hamlet.id], poll)}) yourself a poll.`,
        `${intro}${mention("othello")} [sent](${dmUrl([hamlet.id, othello.id], todo)}) a todo list to ${mention("hamlet")}.`,
      ]);
    });

    it("quotes the note (FL 415) and keeps the whole within a message's length", async () => {
      const messageId = await sendToChannel(t, "othello", "Verona", "castle", "x".repeat(10_000));
      await remind(messageId, { note: "\n\nBring the key  \n" });
      const [reminder] = await stored();
      const content = reminder.content as string;
      assert.ok(content.startsWith("You requested a reminder for the following message. Note:\n > Bring the key\n\n"), content.slice(0, 120));
      assert.equal([...content].length, 10_000);
      assert.ok(content.endsWith("x\n[message truncated]\n```"));
      assertError(
        await t.as("hamlet").post("/reminders", { message_id: messageId, scheduled_delivery_timestamp: t.clock.seconds + HOUR, note: "n".repeat(1001) }),
        "Maximum reminder note length: 1000 characters",
      );
      assert.equal((await t.as("hamlet").post("/reminders", { message_id: messageId, scheduled_delivery_timestamp: t.clock.seconds + HOUR, note: "n".repeat(1000) })).status, 200);
    });

    it("refuses a message the user cannot read, a past time, and missing or malformed parameters", async () => {
      const theirs = await sendDm(t, "othello", ["cordelia"], "private");
      const mine = await sendToChannel(t, "hamlet", "Verona", "t", "mine");
      t.published.length = 0;
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [{ message_id: theirs, scheduled_delivery_timestamp: t.clock.seconds + HOUR }, "Invalid message(s)"],
        [{ message_id: 999_999, scheduled_delivery_timestamp: t.clock.seconds + HOUR }, "Invalid message(s)"],
        [{ message_id: mine, scheduled_delivery_timestamp: t.clock.seconds }, "Scheduled delivery time must be in the future."],
        [{ message_id: mine }, "Missing 'scheduled_delivery_timestamp' argument", "REQUEST_VARIABLE_MISSING"],
        [{ scheduled_delivery_timestamp: t.clock.seconds + HOUR }, "Missing 'message_id' argument", "REQUEST_VARIABLE_MISSING"],
        [{ message_id: "first", scheduled_delivery_timestamp: t.clock.seconds + HOUR }, "message_id is not an integer", "REQUEST_VARIABLE_INVALID"],
      ];
      for (const [params, msg, code] of cases) assertError(await t.as("hamlet").post("/reminders", params), msg, code ?? "BAD_REQUEST");
      assert.deepEqual(await stored(), []);
      assert.equal(t.published.length, 0);
    });

    it("deletes the owner's reminder; another's, a missing one or a scheduled message's id is 404", async () => {
      const messageId = await sendToChannel(t, "hamlet", "Verona", "t", "hello");
      const mine = await remind(messageId);
      const theirs = await remind(messageId, {}, "othello");
      const scheduled = (await t.as("hamlet").post("/scheduled_messages", { type: "direct", to: [t.users.othello.id], content: "x", scheduled_delivery_timestamp: t.clock.seconds + HOUR })).body
        .scheduled_message_id as number;
      t.published.length = 0;
      for (const id of [theirs, scheduled, 999_999]) assertError(await t.as("hamlet").delete(`/reminders/${id}`), "Reminder does not exist", "BAD_REQUEST", 404);
      assertError(await t.as("hamlet").delete(`/scheduled_messages/${mine}`), "Scheduled message does not exist", "BAD_REQUEST", 404);
      assert.equal(t.published.length, 0);
      assert.equal((await t.as("hamlet").delete(`/reminders/${mine}`)).status, 200);
      assert.deepEqual(eventsOf(t, "reminders", "remove").map((e) => [e.event, e.userIds]), [[{ type: "reminders", op: "remove", reminder_id: mine }, [t.users.hamlet.id]]]);
      assert.deepEqual(await stored(), []);
      assert.equal((await stored("othello")).length, 1);
    });

    it("is delivered as Notification Bot's direct message, from the message as it then is, however late", async () => {
      const messageId = await sendToChannel(t, "othello", "Verona", "castle", "first words");
      const id = await remind(messageId, { note: "call back" });
      assert.equal((await t.as("othello").patch(`/messages/${messageId}`, { content: "second thoughts" })).status, 200);
      t.clock.seconds += HOUR + LATE_CUTOFF_SECONDS + 60;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      const sent = eventsOf(t, "message");
      assert.deepEqual([...new Set(sent.flatMap((e) => e.userIds))].includes(t.users.hamlet.id), true);
      const message = sent.find((e) => e.userIds.includes(t.users.hamlet.id))!;
      const body = message.event.message as { sender_email: string; type: string; content: string; timestamp: number };
      assert.ok(body.sender_email.startsWith("notification-bot@"));
      assert.deepEqual([body.type, body.timestamp], ["private", t.clock.seconds]);
      assert.deepEqual(message.event.flags, [], "unread: it is there to remind");
      assert.match(body.content, /call back[\s\S]*second thoughts/);
      assert.deepEqual(eventsOf(t, "reminders", "remove").map((e) => e.event), [{ type: "reminders", op: "remove", reminder_id: id }]);
      assert.deepEqual(await stored(), []);
    });

    it("sends the text written when scheduled once the message is out of reach", async () => {
      await createChannel(t, "secret", ["hamlet", "othello"], { invite_only: true });
      const messageId = await sendToChannel(t, "othello", "secret", "plans", "for members only");
      await remind(messageId);
      const [reminder] = await stored();
      assert.equal((await t.as("iago").delete("/users/me/subscriptions", { subscriptions: ["secret"], principals: [t.users.hamlet.id] })).status, 200);
      assert.equal((await t.as("hamlet").get(`/messages/${messageId}`)).status, 400, "out of reach now");
      t.clock.seconds += HOUR;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      const sent = eventsOf(t, "message").find((e) => e.userIds.includes(t.users.hamlet.id))!;
      assert.equal((sent.event.message as { content: string }).content, reminder.rendered_content);
    });

    it("fails silently for a deactivated user, and stays listed as failed", async () => {
      const messageId = await sendToChannel(t, "hamlet", "Verona", "t", "hello");
      await remind(messageId);
      assert.equal((await t.as("iago").delete(`/users/${t.users.hamlet.id}`)).status, 200);
      t.clock.seconds += HOUR;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      assert.equal(eventsOf(t, "message").length, 0);
      const row = await t.deps.store.db.selectFrom("scheduled_messages").selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([Boolean(row.failed), row.failure_message], [true, "Account is deactivated"]);
    });

    it("is open to every account that can read the message, guests and bots included", async () => {
      const messageId = await sendToChannel(t, "hamlet", "Verona", "t", "for all");
      await createChannel(t, "everyone", ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"]);
      const shared = await sendToChannel(t, "iago", "everyone", "t", "everyone reads this");
      const everyone = ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"] as const;
      await checkPermissions(everyone, (who) => t.as(who).post("/reminders", { message_id: shared, scheduled_delivery_timestamp: t.clock.seconds + HOUR }));
      await checkPermissions(everyone, (who) => t.as(who).get("/reminders"));
      // The guest is not in Verona: its messages are out of reach.
      assertError(await t.as("polonius").post("/reminders", { message_id: messageId, scheduled_delivery_timestamp: t.clock.seconds + HOUR }), "Invalid message(s)");
    });
  });
}
