/**
 * Missed-message emails (issue 19), on every store, with the test clock: a DM to a user with no
 * open client becomes one email after the batching period, none when read first or when the
 * sender is muted; a mention in a channel, and a channel with email notifications on, do too;
 * messages of one conversation share one email, two conversations make two; turning email off
 * cancels what waits; an active client means no email; the batch is sent once even when two
 * senders race for it.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { deliverDueNotifications, LEASE_SECONDS } from "../../src/actions/notifications/deliver.js";
import { transaction } from "../../src/store/db.js";
import { claimDueBatch } from "../../src/store/pending-notifications.js";
import { upsertPresence } from "../../src/store/presence.js";
import { createMailRealm, mailsTo, readMails, type MailRealm } from "../helpers/invites.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const PERIOD = 120;

for (const kind of STORE_KINDS) {
  describe(`missed-message emails [${kind}]`, () => {
    let t: MailRealm;
    beforeEach(async () => {
      t = await createMailRealm(kind);
    });
    afterEach(() => t.close());

    const emailOf = (name: "othello" | "cordelia" | "iago") => t.users[name].email;
    const deliver = () => deliverDueNotifications(t.deps, 100);
    const pending = () => t.deps.store.db.selectFrom("pending_notifications").selectAll().execute();
    const later = async (seconds: number) => {
      t.clock.seconds += seconds;
      await deliver();
    };

    it("sends one email for a DM after the batching period, with text, HTML and links", async () => {
      const id = await sendDm(t, "hamlet", ["othello"], "Where is **the handkerchief**?");
      await later(PERIOD - 1);
      assert.deepEqual(mailsTo(t, emailOf("othello")), [], "not before the batching period");
      await later(1);
      const mails = mailsTo(t, emailOf("othello"));
      assert.equal(mails.length, 1);
      const [mail] = mails;
      assert.match(mail.headers.subject, /^DMs with King Hamlet$/);
      assert.match(mail.text, /King Hamlet:\r?\nWhere is the handkerchief\?/);
      assert.ok(mail.text.includes(`/#narrow/dm/`) && mail.text.includes(`/near/${id}`), mail.text);
      assert.ok(mail.text.includes("/#settings/notifications"));
      assert.match(mail.html ?? "", /<strong>the handkerchief<\/strong>/);
      assert.match(mail.html ?? "", /href="https?:\/\/[^"]+\/#settings\/notifications"/);
      assert.deepEqual(await pending(), []);
      await later(PERIOD * 10);
      assert.equal(mailsTo(t, emailOf("othello")).length, 1, "sent once");
    });

    it("sends nothing for a DM read before the period ends", async () => {
      const id = await sendDm(t, "hamlet", ["othello"], "read me");
      const res = await t.as("othello").post("/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" });
      assert.equal(res.status, 200);
      await later(PERIOD);
      assert.deepEqual(readMails(t), []);
      assert.deepEqual(await pending(), []);
    });

    it("sends nothing for a DM from a muted sender", async () => {
      assert.equal((await t.as("othello").post(`/users/me/muted_users/${t.users.hamlet.id}`)).status, 200);
      await sendDm(t, "hamlet", ["othello"], "you muted me");
      await later(PERIOD);
      assert.deepEqual(readMails(t), []);
    });

    it("emails a mention, and messages to a channel with email notifications on; one email per conversation", async () => {
      const verona = await createChannel(t, "Verona", ["hamlet", "othello", "cordelia"]);
      const res = await t.as("cordelia").post("/users/me/subscriptions/properties", {
        subscription_data: JSON.stringify([{ stream_id: verona, property: "email_notifications", value: true }]),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // Otherwise the mention makes othello follow the topic (FL 235), and the next message notifies as followed.
      assert.equal((await t.as("othello").patch("/settings", { automatically_follow_topics_where_mentioned: false })).status, 200);
      await sendToChannel(t, "hamlet", "Verona", "castle", "@**Othello, the Moor of Venice** look");
      await sendToChannel(t, "hamlet", "Verona", "castle", "and this");
      await sendToChannel(t, "hamlet", "Verona", "garden", "elsewhere");
      await later(PERIOD);
      const othello = mailsTo(t, emailOf("othello"));
      assert.deepEqual(othello.map((m) => m.headers.subject), ["#Verona > castle"]);
      assert.match(othello[0].text, /personally mentioned/);
      assert.doesNotMatch(othello[0].text, /and this/, "only the mention notifies othello");
      const cordelia = mailsTo(t, emailOf("cordelia")).map((m) => m.headers.subject).sort();
      assert.deepEqual(cordelia, ["#Verona > castle", "#Verona > garden"]);
      const castle = mailsTo(t, emailOf("cordelia")).find((m) => m.headers.subject.endsWith("castle"))!;
      assert.match(castle.text, /look[\s\S]*and this/, "both messages of the topic in one email");
      assert.match(castle.text, /email notifications enabled for #Verona/);
    });

    it("later messages join the open batch: one email at the first message's time", async () => {
      await sendDm(t, "hamlet", ["othello"], "first");
      t.clock.seconds += 60;
      await sendDm(t, "hamlet", ["othello"], "second");
      await later(PERIOD - 60);
      const mails = mailsTo(t, emailOf("othello"));
      assert.equal(mails.length, 1);
      assert.match(mails[0].text, /first[\s\S]*second/);
    });

    it("turning offline email notifications off cancels the pending ones", async () => {
      await sendDm(t, "hamlet", ["othello"], "cancelled");
      assert.equal((await pending()).length, 1);
      const res = await t.as("othello").patch("/settings", { enable_offline_email_notifications: false });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(await pending(), []);
      await sendDm(t, "hamlet", ["othello"], "not queued either");
      await later(PERIOD);
      assert.deepEqual(readMails(t), []);
    });

    it("no email to a user with an active client (a message queue and recent presence)", async () => {
      const reg = await t.as("othello").post("/register", { event_types: JSON.stringify(["message"]) });
      assert.equal(reg.status, 200);
      await transaction(t.deps.store, (tx) =>
        upsertPresence(tx, { user_id: t.users.othello.id, realm_id: t.realmId, last_active_time: t.clock.seconds, last_connected_time: t.clock.seconds, last_update_id: 1 }),
      );
      await sendDm(t, "hamlet", ["othello"], "you are here");
      assert.deepEqual((await pending()).filter((p) => p.kind === "email"), []);
      // Presence gone stale (more than 140 s): idle again, as Zulip decides.
      t.clock.seconds += 200;
      await sendDm(t, "hamlet", ["othello"], "you left");
      assert.equal((await pending()).filter((p) => p.kind === "email").length, 1);
    });

    it("names the mentioned group in the email; a mention added by an edit emails the newly mentioned user once", async () => {
      await createChannel(t, "Verona", ["hamlet", "othello", "cordelia"]);
      const group = await t.as("iago").post("/user_groups/create", { name: "moors", description: "", members: JSON.stringify([t.users.othello.id]) });
      assert.equal(group.status, 200, JSON.stringify(group.body));
      await sendToChannel(t, "hamlet", "Verona", "castle", "@*moors* assemble");
      const id = await sendToChannel(t, "hamlet", "Verona", "garden", "nobody yet");
      assert.deepEqual((await pending()).map((p) => [p.trigger, p.mentioned_group_id]), [["mentioned", group.body.group_id]]);
      const edit = await t.as("hamlet").patch(`/messages/${id}`, { content: "now @**Cordelia, Lear's daughter**" });
      assert.equal(edit.status, 200, JSON.stringify(edit.body));
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "still @**Cordelia, Lear's daughter**!" })).status, 200);
      await later(PERIOD);
      const [othello] = mailsTo(t, emailOf("othello"));
      assert.match(othello.text, /because @moors was mentioned/);
      const cordelia = mailsTo(t, emailOf("cordelia"));
      assert.equal(cordelia.length, 1, "one email, though the mention was kept in a second edit");
      assert.match(cordelia[0].text, /still @Cordelia, Lear's daughter!/);
      assert.match(cordelia[0].text, /personally mentioned/);
    });

    it("an edit adding a mention does not email a user the message notified already (channel email on)", async () => {
      const verona = await createChannel(t, "Verona", ["hamlet", "cordelia"]);
      const res = await t.as("cordelia").post("/users/me/subscriptions/properties", {
        subscription_data: JSON.stringify([{ stream_id: verona, property: "email_notifications", value: true }]),
      });
      assert.equal(res.status, 200);
      const id = await sendToChannel(t, "hamlet", "Verona", "castle", "hello all");
      await later(PERIOD);
      assert.equal(mailsTo(t, emailOf("cordelia")).length, 1);
      assert.equal((await t.as("hamlet").patch(`/messages/${id}`, { content: "hello @**Cordelia, Lear's daughter**" })).status, 200);
      assert.deepEqual(await pending(), []);
    });

    it("uses the user's batching period", async () => {
      assert.equal((await t.as("othello").patch("/settings", { email_notifications_batching_period_seconds: 600 })).status, 200);
      await sendDm(t, "hamlet", ["othello"], "slow");
      await later(PERIOD);
      assert.deepEqual(readMails(t), []);
      await later(600 - PERIOD);
      assert.equal(readMails(t).length, 1);
    });

    it("two senders never take the same batch; a dead sender's lease runs out", async () => {
      await sendDm(t, "hamlet", ["othello"], "claimed");
      t.clock.seconds += PERIOD;
      const now = t.clock.seconds;
      const first = await transaction(t.deps.store, (tx) => claimDueBatch(tx, now, now + LEASE_SECONDS, "a"));
      const second = await transaction(t.deps.store, (tx) => claimDueBatch(tx, now, now + LEASE_SECONDS, "b"));
      assert.equal(first.length, 1);
      assert.deepEqual(second, []);
      // "a" died: nothing is sent while its lease holds, then another sender takes over, once.
      await later(LEASE_SECONDS - 1);
      assert.deepEqual(readMails(t), []);
      await later(1);
      assert.equal(readMails(t).length, 1);
      assert.deepEqual(await pending(), []);
    });

    it("two processes sending at once send each email once", async () => {
      for (const to of ["othello", "cordelia", "iago", "shiva"] as const) await sendDm(t, "hamlet", [to], `for ${to}`);
      t.clock.seconds += PERIOD;
      // Two workers over one store, as two server processes are (PostgreSQL runs both claims at once).
      await Promise.all([deliverDueNotifications(t.deps, 100), deliverDueNotifications({ ...t.deps }, 100), deliverDueNotifications({ ...t.deps }, 100)]);
      assert.equal(readMails(t).length, 4);
      assert.deepEqual((await readMails(t)).map((m) => m.headers.to).sort(), ["othello", "cordelia", "iago", "shiva"].map((n) => t.users[n as "iago"].email).sort());
      assert.deepEqual(await pending(), []);
    });
  });
}
