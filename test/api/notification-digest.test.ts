/**
 * Weekly digest emails (issue 19 item 5), on every store, with the test clock: on the realm's
 * digest weekday an away user gets one email naming the hot conversations of their channels and
 * the new channels; an active user, a user or realm with digests off, gets none; a period is
 * queued and sent once however often it is looked at, and the email's one-click unsubscribe link
 * (and List-Unsubscribe headers) turn digests off.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { deliverDueNotifications } from "../../src/actions/notifications/deliver.js";
import { enqueueDueDigests } from "../../src/actions/notifications/digest.js";
import { runSendDigests } from "../../src/cli/commands/digest-commands.js";
import { transaction } from "../../src/store/db.js";
import { upsertPresence } from "../../src/store/presence.js";
import { createMailRealm, mailsTo, readMails, type MailRealm } from "../helpers/invites.js";
import { createChannel, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** Tuesday 24 November 2026, 18:00 UTC: Zulip's default digest weekday (1), at Parley's digest hour. */
const TUESDAY_1800 = Date.UTC(2026, 10, 24, 18, 0, 0) / 1000;
const DAY = 86_400;

for (const kind of STORE_KINDS) {
  describe(`digest emails [${kind}]`, () => {
    let t: MailRealm;
    beforeEach(async () => {
      t = await createMailRealm(kind);
      t.clock.seconds = TUESDAY_1800 - 2 * DAY;
      const res = await t.as("iago").patch("/realm", { digest_emails_enabled: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await createChannel(t, "Verona", ["hamlet", "othello", "cordelia", "iago", "shiva"]);
      // castle: three people talk; garden: two; monologue: one, at length; aside and whisper: one message each.
      for (const [sender, topic, text] of [
        ["hamlet", "castle", "To the castle"],
        ["iago", "castle", "Which castle?"],
        ["shiva", "castle", "Elsinore"],
        ["hamlet", "castle", "That one"],
        ["hamlet", "garden", "The garden"],
        ["iago", "garden", "Lovely"],
        ["hamlet", "monologue", "To be"],
        ["hamlet", "monologue", "or not"],
        ["hamlet", "monologue", "to be"],
        ["hamlet", "aside", "psst"],
        ["hamlet", "whisper", "hush"],
      ] as const) {
        await sendToChannel(t, sender, "Verona", topic, text);
      }
    });
    afterEach(() => t.close());

    const email = (name: "othello" | "cordelia" | "hamlet") => t.users[name].email;
    // Only the digests: people follow the topics they start (Zulip's default
    // automatically_follow_topics_policy), so followed-topic emails arrive beside them.
    const digestMails = () => readMails(t).filter((m) => m.file.startsWith("digest-"));
    const digestsTo = (address: string) => mailsTo(t, address).filter((m) => m.file.startsWith("digest-"));
    const run = async () => {
      await enqueueDueDigests(t.deps);
      await deliverDueNotifications(t.deps, 100);
    };
    const activeAt = (name: "cordelia", at: number) =>
      transaction(t.deps.store, (tx) => upsertPresence(tx, { user_id: t.users[name].id, realm_id: t.realmId, last_active_time: at, last_connected_time: at, last_update_id: 1 }));

    it("sends an away user one digest naming the hot conversations; none to an active user", async () => {
      await activeAt("cordelia", TUESDAY_1800 - DAY);
      t.clock.seconds = TUESDAY_1800 - 60;
      await run();
      assert.deepEqual(digestMails(), [], "not before the digest hour");
      t.clock.seconds = TUESDAY_1800;
      await run();
      const [mail, ...others] = digestsTo(email("othello"));
      assert.equal(others.length, 0);
      assert.match(mail.headers.subject, /digest/);
      for (const topic of ["castle", "garden", "monologue", "aside"]) assert.ok(mail.text.includes(`#Verona > ${topic}`), `${topic} in\n${mail.text}`);
      assert.ok(!mail.text.includes("whisper"), "four hot conversations at most");
      assert.match(mail.text, /Participants: Iago, King Hamlet, Shiva/);
      assert.match(mail.text, /and 2 more messages/, "castle: two shown, two more");
      assert.match(mail.text, /New channels: #Verona/);
      assert.match(mail.html ?? "", /<a href="https?:\/\/[^"]+\/#narrow\/channel\/\d+-Verona\/topic\/castle">/);
      assert.deepEqual(digestsTo(email("cordelia")), [], "active two days ago: no digest");
    });

    it("is queued and sent once per period, however often it is looked at", async () => {
      t.clock.seconds = TUESDAY_1800 + 3600;
      await Promise.all([enqueueDueDigests(t.deps), enqueueDueDigests({ ...t.deps })]);
      await deliverDueNotifications(t.deps, 100);
      const count = digestMails().length;
      assert.equal(digestsTo(email("othello")).length, 1);
      for (const later of [2 * 3600, 20 * 3600, DAY + 3600]) {
        t.clock.seconds = TUESDAY_1800 + later;
        await run();
      }
      assert.equal(digestMails().length, count, "no second digest that week");
      assert.deepEqual(await t.deps.store.db.selectFrom("pending_notifications").selectAll().execute(), []);
    });

    it("sends none when the realm or the user turned digests off", async () => {
      assert.equal((await t.as("othello").patch("/settings", { enable_digest_emails: false })).status, 200);
      t.clock.seconds = TUESDAY_1800;
      await run();
      assert.deepEqual(digestsTo(email("othello")), []);
      assert.equal(digestsTo(email("hamlet")).length, 1, "others still get theirs");

      assert.equal((await t.as("iago").patch("/realm", { digest_emails_enabled: false })).status, 200);
      t.clock.seconds = TUESDAY_1800 + 7 * DAY;
      await run();
      assert.equal(digestsTo(email("hamlet")).length, 1, "realm off: nothing the next week");
    });

    it("follows the realm's digest weekday", async () => {
      const res = await t.as("iago").patch("/realm", { digest_weekday: 2 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      t.clock.seconds = TUESDAY_1800;
      await run();
      assert.deepEqual(digestMails(), []);
      t.clock.seconds = TUESDAY_1800 + DAY;
      await run();
      assert.equal(digestsTo(email("othello")).length, 1);
      assert.equal((await t.as("iago").patch("/realm", { digest_weekday: 7 })).status, 400);
    });

    it("manage send-digests --now sends today's digests whatever the weekday, once", async () => {
      t.clock.seconds = TUESDAY_1800 - DAY; // Monday
      await deliverDueNotifications(t.deps, 100); // the setup's followed-topic emails, which the command would also send
      assert.deepEqual(await runSendDigests(t.deps, {}), { queued: [], batches_sent: 0 }, "not due on a Monday");
      const first = await runSendDigests(t.deps, { realm: "zulip", now: "true" });
      assert.equal(first.queued.length, 1);
      assert.equal(first.queued[0].realm_id, t.realmId);
      assert.ok(first.batches_sent >= 1);
      assert.equal(digestsTo(email("othello")).length, 1);
      const again = await runSendDigests(t.deps, { now: "true" });
      assert.deepEqual(again, { queued: [], batches_sent: 0 });
    });

    it("a realm setting turned off after queueing stops what waits; the register state shows the settings", async () => {
      const reg = await t.as("othello").post("/register", { fetch_event_types: JSON.stringify(["realm"]) });
      assert.equal(reg.body.realm_digest_emails_enabled, true);
      assert.equal(reg.body.realm_digest_weekday, 1);
      t.clock.seconds = TUESDAY_1800;
      await enqueueDueDigests(t.deps);
      assert.equal((await t.as("iago").patch("/realm", { digest_emails_enabled: false })).status, 200);
      await deliverDueNotifications(t.deps, 100);
      assert.deepEqual(digestMails(), []);
    });
  });
}
