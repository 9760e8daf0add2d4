/**
 * One-click unsubscribe (issue 19 item 4), on every store: the missed-message and digest emails
 * carry a signed link and List-Unsubscribe / List-Unsubscribe-Post headers; following the link
 * (GET, as from the email, or POST, as a mail reader's one-click button) turns the matching
 * setting off without logging in and tells the user's clients (user_settings update); a forged,
 * altered, mistyped or foreign link is refused with 400 and changes nothing.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { deliverDueNotifications } from "../../src/actions/notifications/deliver.js";
import { enqueueDueDigests } from "../../src/actions/notifications/digest.js";
import { unsubscribeToken } from "../../src/actions/notifications/unsubscribe-links.js";
import { settingOf } from "../../src/lib/user-settings.js";
import { readTx } from "../../src/store/db.js";
import { getUserById } from "../../src/store/users.js";
import { createMailRealm, mailsTo, type MailRealm, type ReadMail } from "../helpers/invites.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Another last character of a 43-character base64url text that decodes to the same 32 bytes. */
const otherSpelling = (last: string) => BASE64URL[BASE64URL.indexOf(last) ^ 1];

for (const kind of STORE_KINDS) {
  describe(`one-click unsubscribe [${kind}]`, () => {
    let t: MailRealm;
    beforeEach(async () => {
      t = await createMailRealm(kind);
    });
    afterEach(() => t.close());

    const setting = async (name: "othello" | "cordelia", key: string) => settingOf((await getUserById(readTx(t.deps.store), t.realmId, t.users[name].id))!.settings, key);
    /** The path of the link in the headers, checked against the one in the text. */
    function linkOf(mail: ReadMail, type: string): string {
      const header = /^<(https?:\/\/[^>]+)>$/.exec(mail.headers["list-unsubscribe"])?.[1];
      assert.ok(header, JSON.stringify(mail.headers));
      assert.equal(mail.headers["list-unsubscribe-post"], "List-Unsubscribe=One-Click");
      assert.ok(mail.text.includes(header), "the same link in the body");
      const path = new URL(header).pathname;
      assert.match(path, new RegExp(`^/accounts/unsubscribe/${type}/\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
      return path;
    }
    const open = (method: "GET" | "POST", url: string, body?: string) =>
      t.app.inject({ method, url, headers: { host: t.host, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) }, payload: body });

    it("the missed-message email's link turns offline email notifications off, with the settings event", async () => {
      await sendDm(t, "hamlet", ["othello"], "hello");
      t.clock.seconds += 120;
      await deliverDueNotifications(t.deps, 10);
      const [mail] = mailsTo(t, t.users.othello.email);
      const path = linkOf(mail, "missed_messages");
      assert.equal(await setting("othello", "enable_offline_email_notifications"), true);
      t.published.length = 0;
      const res = await open("GET", path);
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /unsubscribed/i);
      assert.equal(res.headers["cache-control"], "no-store");
      assert.equal(await setting("othello", "enable_offline_email_notifications"), false);
      const events = t.published.filter((p) => p.event.type === "user_settings");
      assert.deepEqual(events.map((p) => [p.event.op, p.event.property, p.event.value, p.userIds]), [["update", "enable_offline_email_notifications", false, [t.users.othello.id]]]);
      // Followed again: still off, still fine.
      assert.equal((await open("GET", path)).statusCode, 200);
      await sendDm(t, "hamlet", ["othello"], "not emailed");
      assert.deepEqual(await t.deps.store.db.selectFrom("pending_notifications").selectAll().execute(), []);
    });

    it("the digest's link works as a one-click POST (RFC 8058)", async () => {
      assert.equal((await t.as("iago").patch("/realm", { digest_emails_enabled: true })).status, 200);
      t.clock.seconds = Date.UTC(2026, 10, 23, 18) / 1000;
      await createChannel(t, "Verona", ["hamlet", "cordelia"]);
      await sendToChannel(t, "hamlet", "Verona", "castle", "news");
      t.clock.seconds = Date.UTC(2026, 10, 24, 18) / 1000;
      await enqueueDueDigests(t.deps);
      await deliverDueNotifications(t.deps, 100);
      const [mail] = mailsTo(t, t.users.cordelia.email);
      const path = linkOf(mail, "digest");
      const res = await open("POST", path, "List-Unsubscribe=One-Click");
      assert.equal(res.statusCode, 200);
      assert.equal(await setting("cordelia", "enable_digest_emails"), false);
      assert.equal(await setting("cordelia", "enable_offline_email_notifications"), true, "only the digest setting");
    });

    it("refuses forged, altered, mistyped and foreign links, changing nothing", async () => {
      const othello = (await getUserById(readTx(t.deps.store), t.realmId, t.users.othello.id))!;
      const good = unsubscribeToken(othello, "missed_messages");
      const [realm, user, mac] = good.split(".");
      const flipped = mac.slice(0, -1) + (mac.endsWith("A") ? "B" : "A");
      const forged = [
        `/accounts/unsubscribe/missed_messages/${realm}.${user}.${flipped}`,
        `/accounts/unsubscribe/missed_messages/${realm}.${t.users.cordelia.id}.${mac}`,
        `/accounts/unsubscribe/digest/${good}`,
        `/accounts/unsubscribe/everything/${good}`,
        `/accounts/unsubscribe/missed_messages/${realm}.${user}.${"A".repeat(43)}`,
        // The same MAC bytes spelt differently: the last character's two unused bits set.
        `/accounts/unsubscribe/missed_messages/${realm}.${user}.${mac.slice(0, -1)}${otherSpelling(mac.at(-1)!)}`,
        `/accounts/unsubscribe/missed_messages/not-a-token`,
        `/accounts/unsubscribe/missed_messages/${realm}.99999.${mac}`,
      ];
      for (const url of forged) {
        for (const method of ["GET", "POST"] as const) {
          const res = await open(method, url, method === "POST" ? "List-Unsubscribe=One-Click" : undefined);
          assert.equal(res.statusCode, 400, `${method} ${url}`);
          assert.match(res.body, /Unknown email unsubscribe request/);
        }
      }
      assert.equal(await setting("othello", "enable_offline_email_notifications"), true);
      assert.equal(await setting("othello", "enable_digest_emails"), true);
      assert.equal(await setting("cordelia", "enable_offline_email_notifications"), true);
      // A new API key retires the old links.
      assert.equal((await t.as("othello").post("/users/me/api_key/regenerate")).status, 200);
      assert.equal((await open("GET", `/accounts/unsubscribe/missed_messages/${good}`)).statusCode, 400);
    });
  });
}
