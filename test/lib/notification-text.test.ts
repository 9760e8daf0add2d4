/**
 * The pure text of notifications: rendered HTML as plain text (lib/html-text.ts) and the
 * missed-message email's subject and bodies (actions/notifications/email-content.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { composeMissedMessageEmail, type MissedMessageEmail } from "../../src/actions/notifications/email-content.js";
import { htmlToText, truncateForPush } from "../../src/lib/html-text.js";
import { TRIGGER } from "../../src/policy/notifications.js";

const BASE: MissedMessageEmail = {
  realmName: "Zulip Dev",
  realmUrl: "https://zulip.example.com",
  realmNameInSubject: false,
  includeContent: true,
  conversation: { kind: "direct", participantIds: [1, 2, 3, 4], otherNames: ["Cordelia", "Hamlet", "Iago"] },
  messages: [{ id: 7, senderName: "Hamlet", html: '<p>See <a href="/user_uploads/1/a.png">this</a> &amp; <strong>that</strong></p>' }],
  triggers: [TRIGGER.DIRECT_MESSAGE],
  unsubscribeUrl: "https://zulip.example.com/accounts/unsubscribe/missed_messages/1.2.x",
};

describe("notification text", () => {
  it("turns rendered HTML into plain text", () => {
    assert.equal(htmlToText("<p>a &lt;b&gt; &#x1F600; &#39;c&#39;</p><p>next<br>line</p>"), "a <b> 😀 'c'\nnext\nline");
    assert.deepEqual(truncateForPush("x".repeat(201)), { content: "x".repeat(200) + "…", truncated: true });
    assert.deepEqual(truncateForPush("short"), { content: "short", truncated: false });
  });

  it("names group DMs, prefixes the organization when asked, makes links absolute", () => {
    const mail = composeMissedMessageEmail({ ...BASE, realmNameInSubject: true });
    assert.equal(mail.subject, "[Zulip Dev] Group DMs with Cordelia, Hamlet, and Iago");
    assert.ok(mail.html.includes('href="https://zulip.example.com/user_uploads/1/a.png"'));
    assert.match(mail.text, /Hamlet:\nSee this & that/);
    assert.ok(mail.text.includes("https://zulip.example.com/#narrow/dm/1,2,3,4/near/7"));
  });

  it("names the mentioned group in the reason, and carries the unsubscribe link", () => {
    const mail = composeMissedMessageEmail({ ...BASE, conversation: { kind: "channel", channelId: 3, channelName: "Verona", topic: "castle" }, triggers: [TRIGGER.MENTION], mentionedGroupName: "hamletcharacters" });
    assert.match(mail.text, /because @hamletcharacters was mentioned/);
    assert.match(mail.html, /because @hamletcharacters was mentioned/);
    assert.ok(mail.text.includes(BASE.unsubscribeUrl));
    assert.ok(mail.html.includes(`href="${BASE.unsubscribeUrl}"`));
    assert.match(composeMissedMessageEmail({ ...BASE, triggers: [TRIGGER.MENTION] }).text, /personally mentioned/);
  });

  it("leaves the content out when message_content_in_email_notifications is off", () => {
    const mail = composeMissedMessageEmail({ ...BASE, includeContent: false });
    assert.doesNotMatch(mail.text, /that/);
    assert.doesNotMatch(mail.html, /that<\/strong>/);
  });

  it("names the channel topic, the general chat, and the reason", () => {
    const mail = composeMissedMessageEmail({
      ...BASE,
      conversation: { kind: "channel", channelId: 3, channelName: "Verona", topic: "" },
      triggers: [TRIGGER.STREAM_WILDCARD_MENTION],
    });
    assert.equal(mail.subject, "#Verona > general chat");
    assert.match(mail.text, /everyone was mentioned in #Verona/);
  });
});
