/**
 * The notification decision (src/policy/notifications.ts), one row per rule of Zulip's
 * notification_data.py and get_recipient_info; docs/NOTIFICATIONS.md prints the same table.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FLAG_BITS } from "../../src/lib/flags.js";
import {
  decideNotifications,
  isIdle,
  notificationTriggers,
  TRIGGER,
  VISIBILITY,
  type NotificationRecipient,
  type NotificationSettings,
  type SubscriptionNotificationSettings,
} from "../../src/policy/notifications.js";

const DEFAULTS: NotificationSettings = {
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
};
const SUB: SubscriptionNotificationSettings = { is_muted: false, email_notifications: null, push_notifications: null, wildcard_mentions_notify: null };
const SENDER = 1;
const ME = 2;

interface Row {
  name: string;
  direct?: boolean;
  flags?: number;
  settings?: Partial<NotificationSettings>;
  sub?: Partial<SubscriptionNotificationSettings> | null;
  visibility?: number;
  recipient?: Partial<Pick<NotificationRecipient, "userId" | "isBot" | "isActive" | "mutedSender">>;
  email: string | null;
  push: string | null;
}

const M = FLAG_BITS.mentioned;
const SW = FLAG_BITS.stream_wildcard_mentioned;
const TW = FLAG_BITS.topic_wildcard_mentioned;

const TABLE: Row[] = [
  { name: "direct message", direct: true, email: TRIGGER.DIRECT_MESSAGE, push: TRIGGER.DIRECT_MESSAGE },
  { name: "direct message, offline email off", direct: true, settings: { enable_offline_email_notifications: false }, email: null, push: TRIGGER.DIRECT_MESSAGE },
  { name: "direct message, offline push off", direct: true, settings: { enable_offline_push_notifications: false }, email: TRIGGER.DIRECT_MESSAGE, push: null },
  { name: "direct message from a muted sender", direct: true, recipient: { mutedSender: true }, email: null, push: null },
  { name: "direct message to a bot", direct: true, recipient: { isBot: true }, email: null, push: null },
  { name: "direct message to a deactivated user", direct: true, recipient: { isActive: false }, email: null, push: null },
  { name: "own message", direct: true, recipient: { userId: SENDER }, email: null, push: null },
  { name: "plain channel message", email: null, push: null },
  { name: "personal mention", flags: M, email: TRIGGER.MENTION, push: TRIGGER.MENTION },
  { name: "user group mention (the mentioned flag)", flags: M, email: TRIGGER.MENTION, push: TRIGGER.MENTION },
  { name: "mention, offline email off", flags: M, settings: { enable_offline_email_notifications: false }, email: null, push: TRIGGER.MENTION },
  { name: "mention in a muted channel still notifies", flags: M, sub: { is_muted: true }, email: TRIGGER.MENTION, push: TRIGGER.MENTION },
  { name: "mention in a muted topic still notifies", flags: M, visibility: VISIBILITY.MUTED, email: TRIGGER.MENTION, push: TRIGGER.MENTION },
  { name: "mention from a muted sender", flags: M, recipient: { mutedSender: true }, email: null, push: null },
  { name: "channel wildcard", flags: SW, email: TRIGGER.STREAM_WILDCARD_MENTION, push: TRIGGER.STREAM_WILDCARD_MENTION },
  { name: "topic wildcard", flags: TW, email: TRIGGER.TOPIC_WILDCARD_MENTION, push: TRIGGER.TOPIC_WILDCARD_MENTION },
  { name: "wildcard, user's wildcard_mentions_notify off", flags: SW, settings: { wildcard_mentions_notify: false }, email: null, push: null },
  { name: "wildcard, channel's wildcard_mentions_notify off beats the user's on", flags: SW, sub: { wildcard_mentions_notify: false }, email: null, push: null },
  { name: "wildcard, channel's on beats the user's off", flags: SW, sub: { wildcard_mentions_notify: true }, settings: { wildcard_mentions_notify: false }, email: TRIGGER.STREAM_WILDCARD_MENTION, push: TRIGGER.STREAM_WILDCARD_MENTION },
  { name: "wildcard in a muted channel", flags: SW, sub: { is_muted: true }, email: null, push: null },
  { name: "wildcard in an unmuted topic of a muted channel", flags: SW, sub: { is_muted: true }, visibility: VISIBILITY.UNMUTED, email: TRIGGER.STREAM_WILDCARD_MENTION, push: TRIGGER.STREAM_WILDCARD_MENTION },
  { name: "wildcard in a muted topic", flags: TW, visibility: VISIBILITY.MUTED, email: null, push: null },
  { name: "wildcard, offline email off", flags: SW, settings: { enable_offline_email_notifications: false }, email: null, push: TRIGGER.STREAM_WILDCARD_MENTION },
  { name: "topic wildcard in a followed topic", flags: TW, visibility: VISIBILITY.FOLLOWED, email: TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC, push: TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC },
  { name: "channel wildcard in a followed topic", flags: SW, visibility: VISIBILITY.FOLLOWED, email: TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC, push: TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC },
  {
    name: "wildcard in a followed topic, followed-topic wildcards off, wildcards on",
    flags: SW, visibility: VISIBILITY.FOLLOWED, settings: { enable_followed_topic_wildcard_mentions_notify: false },
    email: TRIGGER.STREAM_WILDCARD_MENTION, push: TRIGGER.STREAM_WILDCARD_MENTION,
  },
  { name: "followed topic", visibility: VISIBILITY.FOLLOWED, email: TRIGGER.FOLLOWED_TOPIC_EMAIL, push: TRIGGER.FOLLOWED_TOPIC_PUSH },
  {
    name: "followed topic, followed-topic email off", visibility: VISIBILITY.FOLLOWED,
    settings: { enable_followed_topic_email_notifications: false }, email: null, push: TRIGGER.FOLLOWED_TOPIC_PUSH,
  },
  { name: "followed topic in a muted channel", visibility: VISIBILITY.FOLLOWED, sub: { is_muted: true }, email: TRIGGER.FOLLOWED_TOPIC_EMAIL, push: TRIGGER.FOLLOWED_TOPIC_PUSH },
  { name: "channel email on (the channel's setting)", sub: { email_notifications: true }, email: TRIGGER.STREAM_EMAIL, push: null },
  { name: "channel push on (the channel's setting)", sub: { push_notifications: true }, email: null, push: TRIGGER.STREAM_PUSH },
  { name: "channel setting null: the user's default on", settings: { enable_stream_email_notifications: true, enable_stream_push_notifications: true }, email: TRIGGER.STREAM_EMAIL, push: TRIGGER.STREAM_PUSH },
  { name: "channel setting off beats the user's default on", sub: { email_notifications: false }, settings: { enable_stream_email_notifications: true }, email: null, push: null },
  { name: "channel email on, channel muted", sub: { email_notifications: true, is_muted: true }, email: null, push: null },
  { name: "channel email on, topic muted", sub: { email_notifications: true }, visibility: VISIBILITY.MUTED, email: null, push: null },
  { name: "channel email on, topic unmuted in a muted channel", sub: { email_notifications: true, is_muted: true }, visibility: VISIBILITY.UNMUTED, email: TRIGGER.STREAM_EMAIL, push: null },
  { name: "mention beats the channel setting", flags: M, sub: { email_notifications: true }, email: TRIGGER.MENTION, push: TRIGGER.MENTION },
  { name: "not subscribed (mentioned unsubscribed user)", flags: M, sub: null, email: TRIGGER.MENTION, push: TRIGGER.MENTION },
  { name: "alert word alone: desktop only, as in Zulip", flags: FLAG_BITS.has_alert_word, email: null, push: null },
  { name: "channel message from a muted sender with channel email on", sub: { email_notifications: true }, recipient: { mutedSender: true }, email: null, push: null },
];

describe("notification decision (policy/notifications.ts)", () => {
  for (const row of TABLE) {
    it(row.name, () => {
      const recipient: NotificationRecipient = {
        userId: ME,
        isBot: false,
        isActive: true,
        settings: { ...DEFAULTS, ...row.settings },
        flags: row.flags ?? 0,
        subscription: row.direct ? null : row.sub === null ? null : { ...SUB, ...row.sub },
        visibilityPolicy: row.visibility ?? VISIBILITY.INHERIT,
        mutedSender: false,
        ...row.recipient,
      };
      const triggers = notificationTriggers({ senderId: SENDER, direct: row.direct ?? false }, recipient);
      assert.deepEqual({ email: triggers.email, push: triggers.push }, { email: row.email, push: row.push });
    });
  }

  it("an active user gets no email, and push only with online push on", () => {
    const triggers = { email: TRIGGER.DIRECT_MESSAGE, push: TRIGGER.DIRECT_MESSAGE, onlinePush: true } as const;
    assert.deepEqual(decideNotifications(triggers, false), { email: null, push: TRIGGER.DIRECT_MESSAGE });
    assert.deepEqual(decideNotifications({ ...triggers, onlinePush: false }, false), { email: null, push: null });
    assert.deepEqual(decideNotifications({ ...triggers, onlinePush: false }, true), { email: TRIGGER.DIRECT_MESSAGE, push: TRIGGER.DIRECT_MESSAGE });
  });

  it("idle: no queue taking messages, or presence not active for 140 s", () => {
    assert.equal(isIdle(false, 1000, 1000), true);
    assert.equal(isIdle(true, null, 1000), true);
    assert.equal(isIdle(true, 1000 - 140, 1000), false);
    assert.equal(isIdle(true, 1000 - 141, 1000), true);
  });
});
