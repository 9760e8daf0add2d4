/**
 * Who gets a missed-message email or a mobile push for a new message, and why: Zulip's rules
 * (zerver/lib/notification_data.py UserMessageNotificationsData, with the recipient sets that
 * zerver/actions/message_send.py get_recipient_info builds), as one pure decision per recipient.
 * docs/NOTIFICATIONS.md has the table these rules make and where Parley differs.
 *
 * The decision is in two steps, as in Zulip: what the message would trigger were the recipient
 * away (`notificationTriggers`), then whether they are (`decideNotifications`): an email only when
 * idle, a push when idle or when the user asked for push while online.
 */
import { FLAG_BITS } from "../lib/flags.js";

/** Zulip's NotificationTriggers values (they go into the pending rows and the email's reasons). */
export const TRIGGER = {
  DIRECT_MESSAGE: "private_message",
  MENTION: "mentioned",
  TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC: "topic_wildcard_mentioned_in_followed_topic",
  STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC: "stream_wildcard_mentioned_in_followed_topic",
  TOPIC_WILDCARD_MENTION: "topic_wildcard_mentioned",
  STREAM_WILDCARD_MENTION: "stream_wildcard_mentioned",
  FOLLOWED_TOPIC_EMAIL: "followed_topic_email_notify",
  FOLLOWED_TOPIC_PUSH: "followed_topic_push_notify",
  STREAM_EMAIL: "stream_email_notify",
  STREAM_PUSH: "stream_push_notify",
} as const;

export type NotificationTrigger = (typeof TRIGGER)[keyof typeof TRIGGER];

/** Zulip's UserTopic.VisibilityPolicy. */
export const VISIBILITY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

/** The personal settings the decision reads (Zulip's names). */
export interface NotificationSettings {
  enable_offline_email_notifications: boolean;
  enable_offline_push_notifications: boolean;
  enable_online_push_notifications: boolean;
  enable_stream_email_notifications: boolean;
  enable_stream_push_notifications: boolean;
  enable_followed_topic_email_notifications: boolean;
  enable_followed_topic_push_notifications: boolean;
  wildcard_mentions_notify: boolean;
  enable_followed_topic_wildcard_mentions_notify: boolean;
}

export const NOTIFICATION_SETTING_NAMES: ReadonlyArray<keyof NotificationSettings> = [
  "enable_offline_email_notifications", "enable_offline_push_notifications", "enable_online_push_notifications",
  "enable_stream_email_notifications", "enable_stream_push_notifications", "enable_followed_topic_email_notifications",
  "enable_followed_topic_push_notifications", "wildcard_mentions_notify", "enable_followed_topic_wildcard_mentions_notify",
];

/** A channel subscription's own settings; null means "the user's default" (Zulip's convention). */
export interface SubscriptionNotificationSettings {
  is_muted: boolean;
  email_notifications: boolean | null;
  push_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

export interface NotificationRecipient {
  userId: number;
  isBot: boolean;
  isActive: boolean;
  settings: NotificationSettings;
  /** The recipient's user_messages flags for the message (FLAG_BITS). */
  flags: number;
  /** Channel messages: the recipient's subscription (null when they are not subscribed). */
  subscription: SubscriptionNotificationSettings | null;
  /** Channel messages: the recipient's visibility policy for the topic (VISIBILITY). */
  visibilityPolicy: number;
  /** The recipient muted the sender. */
  mutedSender: boolean;
}

export interface NotificationMessage {
  senderId: number;
  direct: boolean;
}

/** What a message would trigger for a recipient who is away; null: nothing of that kind. */
export interface Triggers {
  email: NotificationTrigger | null;
  push: NotificationTrigger | null;
  /** The recipient wants push even while online (enable_online_push_notifications). */
  onlinePush: boolean;
}

const NONE: Triggers = { email: null, push: null, onlinePush: false };

/**
 * Zulip's user_allows_notifications_in_StreamTopic: a muted channel silences all but unmuted
 * topics, a muted topic is silent, then the subscription's own setting, else the user's default.
 */
export function allowsInChannelTopic(sub: SubscriptionNotificationSettings, visibilityPolicy: number, own: boolean | null, fallback: boolean): boolean {
  if (sub.is_muted && visibilityPolicy !== VISIBILITY.UNMUTED) return false;
  if (visibilityPolicy === VISIBILITY.MUTED) return false;
  return own ?? fallback;
}

const has = (flags: number, bit: number) => (flags & bit) !== 0;

/** The reasons, in Zulip's order of salience (a mention beats a channel setting, and so on). */
function firstTrigger(reasons: ReadonlyArray<readonly [boolean, NotificationTrigger]>): NotificationTrigger | null {
  return reasons.find(([applies]) => applies)?.[1] ?? null;
}

export function notificationTriggers(message: NotificationMessage, r: NotificationRecipient): Triggers {
  // Bots, deactivated users, the sender themself and those who muted the sender: never.
  if (r.isBot || !r.isActive || r.userId === message.senderId || r.mutedSender) return NONE;
  const s = r.settings;
  const mentioned = has(r.flags, FLAG_BITS.mentioned);
  const topicWildcard = has(r.flags, FLAG_BITS.topic_wildcard_mentioned);
  const streamWildcard = has(r.flags, FLAG_BITS.stream_wildcard_mentioned);
  const sub = message.direct ? null : r.subscription;
  const followed = sub !== null && r.visibilityPolicy === VISIBILITY.FOLLOWED;
  // Wildcard mentions count as personal ones when wildcard_mentions_notify allows (channel
  // setting first); in a followed topic, when enable_followed_topic_wildcard_mentions_notify does.
  const wildcardNotify = sub !== null && allowsInChannelTopic(sub, r.visibilityPolicy, sub.wildcard_mentions_notify, s.wildcard_mentions_notify);
  const followedWildcardNotify = followed && s.enable_followed_topic_wildcard_mentions_notify;
  const decide = (personal: boolean, channelOwn: boolean | null | undefined, channelDefault: boolean, followedSetting: boolean, kind: "email" | "push") => {
    const channel = sub !== null && allowsInChannelTopic(sub, r.visibilityPolicy, channelOwn ?? null, channelDefault);
    return firstTrigger([
      [personal && message.direct, TRIGGER.DIRECT_MESSAGE],
      [personal && mentioned, TRIGGER.MENTION],
      [personal && followedWildcardNotify && topicWildcard, TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC],
      [personal && followedWildcardNotify && streamWildcard, TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC],
      [personal && wildcardNotify && topicWildcard, TRIGGER.TOPIC_WILDCARD_MENTION],
      [personal && wildcardNotify && streamWildcard, TRIGGER.STREAM_WILDCARD_MENTION],
      [followed && followedSetting, kind === "email" ? TRIGGER.FOLLOWED_TOPIC_EMAIL : TRIGGER.FOLLOWED_TOPIC_PUSH],
      [channel, kind === "email" ? TRIGGER.STREAM_EMAIL : TRIGGER.STREAM_PUSH],
    ]);
  };
  return {
    email: decide(s.enable_offline_email_notifications, sub?.email_notifications, s.enable_stream_email_notifications, s.enable_followed_topic_email_notifications, "email"),
    push: decide(s.enable_offline_push_notifications, sub?.push_notifications, s.enable_stream_push_notifications, s.enable_followed_topic_push_notifications, "push"),
    onlinePush: s.enable_online_push_notifications,
  };
}

/** What to send now: an email only to an idle recipient; a push when idle or when online push is on. */
export function decideNotifications(triggers: Triggers, idle: boolean): { email: NotificationTrigger | null; push: NotificationTrigger | null } {
  return { email: idle ? triggers.email : null, push: idle || triggers.onlinePush ? triggers.push : null };
}

/**
 * Zulip's idleness (zerver/tornado/event_queue.py): a recipient is idle when no event queue of
 * theirs takes messages (receiver_is_off_zulip), or when their presence has not been active for
 * PRESENCE_IDLE_SECONDS (get_active_presence_idle_user_ids).
 */
export const PRESENCE_IDLE_SECONDS = 140;

export function isIdle(hasMessageQueue: boolean, lastActiveTime: number | null, now: number): boolean {
  return !hasMessageQueue || lastActiveTime === null || now - lastActiveTime > PRESENCE_IDLE_SECONDS;
}
