/**
 * Delivery of scheduled messages by the server (Zulip's try_deliver_one_scheduled_message), on
 * every store, with the test clock: a due message is sent as a normal message dated when it is
 * sent, exactly once; one the sender may no longer send is marked failed with Zulip's reason and
 * Notification Bot tells them (but not a deactivated sender or organization); Zulip's ten-minute
 * late cutoff; a failed one is rescheduled by an edit; uploads it links outlive the unclaimed-upload
 * cleanup.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LATE_CUTOFF_SECONDS, deliverDue } from "../../src/actions/messages/scheduled-delivery.js";
import { deleteUnclaimedAttachments } from "../../src/scheduler/attachment-cleanup.js";
import { eventsOf, setRealm } from "../helpers/channels.js";
import { userMessageFlags } from "../helpers/conversations.js";
import { createChannel } from "../helpers/messages.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, uploadFile, type UploadRealm } from "../helpers/uploads.js";

const HOUR = 3600;
const READ = 1;

for (const kind of STORE_KINDS) {
  describe(`scheduled message delivery [${kind}]`, () => {
    let t: UploadRealm;
    let verona: number;
    beforeEach(async () => {
      t = await createUploadRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello", "iago"]);
    });
    afterEach(() => t.close());

    const schedule = async (params: Record<string, unknown>) => {
      const body = { scheduled_delivery_timestamp: t.clock.seconds + HOUR, ...params };
      const res = await t.as("hamlet").post("/scheduled_messages", body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.scheduled_message_id as number, due: body.scheduled_delivery_timestamp };
    };
    const failures = async () =>
      (await t.deps.store.db.selectFrom("scheduled_messages").select(["id", "failed", "failure_message"]).orderBy("id").execute()).map((r) => [
        r.id,
        Boolean(r.failed),
        r.failure_message,
      ]);
    /** The distinct messages sent to a user since the events were last cleared. */
    const messagesTo = (who: "hamlet" | "othello") =>
      new Set(eventsOf(t, "message").filter((e) => e.userIds.includes(t.users[who].id)).map((e) => (e.event.message as { id: number }).id));
    const listed = async () => (await t.as("hamlet").get("/scheduled_messages")).body.scheduled_messages as Array<Record<string, unknown>>;
    const latest = async (who: "hamlet" | "othello") =>
      (await t.as(who).get("/messages", { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false })).body.messages[0];

    it("sends a due channel message as a normal message, dated when sent, once", async () => {
      const { id, due } = await schedule({ type: "channel", to: verona, topic: "castle", content: "Hello @**Othello, the Moor of Venice**" });
      t.clock.seconds = due - 1;
      assert.equal(await deliverDue(t.deps, 10), 0, "not due yet");
      t.clock.seconds = due + 30;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      assert.equal(await deliverDue(t.deps, 10), 0, "sent once");

      const sent = eventsOf(t, "message");
      assert.deepEqual(new Set(sent.flatMap((e) => e.userIds)), new Set([t.users.hamlet.id, t.users.othello.id, t.users.iago.id]));
      const message = sent[0].event.message as Record<string, unknown>;
      assert.deepEqual([message.sender_id, message.subject, message.timestamp], [t.users.hamlet.id, "castle", due + 30]);
      const forOthello = sent.find((e) => e.userIds.includes(t.users.othello.id))!;
      assert.deepEqual(forOthello.event.flags, ["mentioned"]);
      assert.deepEqual(eventsOf(t, "scheduled_messages", "remove").map((e) => [e.event, e.userIds]), [
        [{ type: "scheduled_messages", op: "remove", scheduled_message_id: id }, [t.users.hamlet.id]],
      ]);
      const received = await latest("othello");
      assert.deepEqual([received.id, received.content, received.timestamp], [message.id, "Hello @**Othello, the Moor of Venice**", due + 30]);
      assert.equal(await userMessageFlags(t, "hamlet", received.id), READ, "read by its sender, as a full client's own message is");
      assert.equal(((await userMessageFlags(t, "othello", received.id)) ?? 0) & READ, 0, "unread for the others");
      assert.deepEqual(await listed(), []);
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { content: "too late" }), "Scheduled message was already sent");
    });

    it("sends direct messages; one to oneself stays unread, and read_by_sender decides when given", async () => {
      const toOthello = await schedule({ type: "direct", to: [t.users.othello.id], content: "psst" });
      await schedule({ type: "direct", to: [t.users.hamlet.id], content: "remember", scheduled_delivery_timestamp: toOthello.due + 10 });
      const unread = await schedule({ type: "direct", to: [t.users.othello.id], content: "unread", read_by_sender: false, scheduled_delivery_timestamp: toOthello.due + 20 });
      t.clock.seconds = unread.due + 20;
      assert.equal(await deliverDue(t.deps, 10), 3);
      const byContent = new Map(eventsOf(t, "message").map((e) => [(e.event.message as { content: string }).content, e]));
      const ids = ["<p>psst</p>", "<p>remember</p>", "<p>unread</p>"].map((c) => (byContent.get(c)!.event.message as { id: number }).id);
      assert.deepEqual(await Promise.all(ids.map((m) => userMessageFlags(t, "hamlet", m))), [READ, 0, 0]);
      assert.equal(((await userMessageFlags(t, "othello", ids[0])) ?? 0) & READ, 0);
    });

    it("sends each due message once when deliveries run side by side", async () => {
      const due: number[] = [];
      for (let i = 0; i < 6; i++) due.push((await schedule({ type: "stream", to: verona, topic: "race", content: `race ${i}` })).id);
      t.clock.seconds += HOUR;
      const attempts = await Promise.all([deliverDue(t.deps, 10), deliverDue(t.deps, 10), deliverDue(t.deps, 10)]);
      assert.ok(attempts.reduce((a, b) => a + b, 0) >= 6);
      const rows = await t.deps.store.db.selectFrom("messages").select("content").where("content", "like", "race %").execute();
      assert.deepEqual(rows.map((r) => r.content).sort(), due.map((_, i) => `race ${i}`));
    });

    it("marks a message failed when its channel was archived, and Notification Bot says why", async () => {
      const { id, due } = await schedule({ type: "stream", to: verona, topic: "castle", content: "into the void" });
      assert.equal((await t.as("iago").delete(`/streams/${verona}`)).status, 200);
      t.clock.seconds = due;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      const [failed] = await listed();
      assert.deepEqual([failed.scheduled_message_id, failed.failed], [id, true]);
      assert.deepEqual(eventsOf(t, "scheduled_messages", "update").map((e) => e.event.scheduled_message), [failed]);
      const notice = await latest("hamlet");
      assert.equal(notice.sender_email.startsWith("notification-bot@"), true, notice.sender_email);
      assert.match(
        notice.content,
        /^The message you scheduled for <time:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00> was not sent because of the following error:\n\n> .+\n\n\[View scheduled messages\]\(#scheduled\)$/,
      );
      assert.deepEqual(messagesTo("hamlet"), new Set([notice.id]), "only the notice");
      assert.equal(await deliverDue(t.deps, 10), 0, "a failed message is not tried again");

      // Rescheduling needs a new time; it clears the failure.
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { topic: "again" }), "Scheduled delivery time must be in the future.");
      assert.equal((await t.as("hamlet").patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: t.clock.seconds + HOUR, type: "direct", to: [t.users.othello.id] })).status, 200);
      assert.equal((await listed())[0].failed, false);
      t.clock.seconds += HOUR;
      assert.equal(await deliverDue(t.deps, 10), 1);
      assert.equal((await latest("othello")).content, "into the void");
    });

    it("fails when the sender lost the right to post", async () => {
      const secret = await createChannel(t, "secret", ["hamlet", "othello"], { invite_only: true });
      const { id, due } = await schedule({ type: "stream", to: secret, topic: "t", content: "secret" });
      assert.equal((await t.as("iago").delete("/users/me/subscriptions", { subscriptions: ["secret"], principals: [t.users.hamlet.id] })).status, 200);
      t.clock.seconds = due;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      assert.deepEqual(await failures(), [[id, true, `Channel with ID '${secret}' does not exist`]]);
      assert.equal(messagesTo("othello").size, 0);
      assert.equal(messagesTo("hamlet").size, 1, "the notice");
    });

    it("does not send a message more than ten minutes late (Zulip's cutoff), and says so", async () => {
      const onTime = await schedule({ type: "stream", to: verona, topic: "t", content: "just in time" });
      const late = await schedule({ type: "stream", to: verona, topic: "t", content: "late", scheduled_delivery_timestamp: onTime.due - 1 });
      t.clock.seconds = onTime.due + LATE_CUTOFF_SECONDS;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 2);
      assert.deepEqual(await failures(), [
        [onTime.id, false, null],
        [late.id, true, "Message could not be sent at the scheduled time."],
      ]);
      assert.equal(messagesTo("othello").size, 1);
      assert.equal(messagesTo("hamlet").size, 2, "the message and the notice");
    });

    it("fails silently for a deactivated sender, as Zulip does", async () => {
      const { id, due } = await schedule({ type: "stream", to: verona, topic: "t", content: "ghost" });
      assert.equal((await t.as("iago").delete(`/users/${t.users.hamlet.id}`)).status, 200);
      t.clock.seconds = due;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      const row = await t.deps.store.db.selectFrom("scheduled_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      assert.deepEqual([Boolean(row.failed), row.failure_message], [true, "Account is deactivated"]);
      assert.equal(eventsOf(t, "message").length, 0);
      assert.equal(eventsOf(t, "scheduled_messages").length, 0);
    });

    it("fails silently in a deactivated organization, as Zulip does", async () => {
      const { id, due } = await schedule({ type: "direct", to: [t.users.othello.id], content: "closing time" });
      await setRealm(t, { deactivated: true });
      t.clock.seconds = due;
      t.published.length = 0;
      assert.equal(await deliverDue(t.deps, 10), 1);
      assert.deepEqual(await failures(), [[id, true, "This organization has been deactivated"]]);
      assert.equal(t.published.length, 0);
    });

    it("keeps an upload a pending scheduled message links from the cleanup, until it is cancelled", async () => {
      const kept = await uploadFile(t, "hamlet", "kept.txt", "kept");
      const { id } = await schedule({ type: "stream", to: verona, topic: "files", content: `[kept](${kept.url})` });
      t.clock.seconds += 100 * HOUR;
      assert.equal(await deleteUnclaimedAttachments(t.deps), 0);
      assert.equal((await fetchUrl(t, "hamlet", kept.url)).status, 200);
      assert.equal((await t.as("hamlet").delete(`/scheduled_messages/${id}`)).status, 200);
      assert.equal(await deleteUnclaimedAttachments(t.deps), 1);
    });

    it("links the upload to the message it becomes, and lets its owner delete it meanwhile", async () => {
      const file = await uploadFile(t, "hamlet", "sent.txt", "sent");
      const other = await uploadFile(t, "hamlet", "other.txt", "other");
      const { due } = await schedule({ type: "stream", to: verona, topic: "files", content: `[sent](${file.url}) [other](${other.url})` });
      const attachments = (await t.as("hamlet").get("/attachments")).body.attachments as Array<{ id: number; name: string }>;
      assert.equal((await t.as("hamlet").delete(`/attachments/${attachments.find((a) => a.name === "other.txt")!.id}`)).status, 200);
      t.clock.seconds = due;
      assert.equal(await deliverDue(t.deps, 10), 1);
      assert.equal((await fetchUrl(t, "othello", file.url)).status, 200, "a reader of the message may fetch it");
    });
  });
}
