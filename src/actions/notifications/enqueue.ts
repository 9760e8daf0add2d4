/**
 * Deciding, in the transaction that sends a message, which recipients get a missed-message email
 * or a mobile push (policy/notifications.ts), and writing those as pending rows
 * (store/pending-notifications.ts) that the notification worker sends later. Zulip decides the same
 * in its event server when the message arrives (process_message_event, maybe_enqueue_notifications);
 * here the rows commit with the message, so a crash right after sending loses none.
 *
 * Emails wait for the user's batching period (email_notifications_batching_period_seconds, Zulip's
 * default 120 s): a user's first pending email opens a batch due then, and later ones join it, as
 * Zulip's ScheduledMessageNotificationEmail does. Pushes are due at once, and only when a push
 * relay is configured (Zulip's push_notifications_configured).
 */
import type { AppDeps } from "../../deps.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { settingOf } from "../../lib/user-settings.js";
import {
  decideNotifications,
  isIdle,
  notificationTriggers,
  NOTIFICATION_SETTING_NAMES,
  TRIGGER,
  VISIBILITY,
  type NotificationSettings,
  type Triggers,
} from "../../policy/notifications.js";
import type { Tx } from "../../store/db.js";
import { getGroupMemberIds } from "../../store/groups.js";
import { usersWithMessageQueue } from "./queue-activity.js";
import { insertPendingNotifications, openEmailBatchDue, type NewPendingNotification } from "../../store/pending-notifications.js";
import { getLastActiveTimes } from "../../store/presence.js";
import { getSubscriptionRows } from "../../store/subscriptions.js";
import { getTopicPolicies } from "../../store/topics.js";
import type { ChannelRow, UserRow } from "../../store/types.js";
import { getListedUsersByIds } from "../../store/users.js";

/** What deciding a recipient's notifications reads of them: the realm's cached user list has it all. */
type Recipient = Pick<UserRow, "id" | "is_bot" | "is_active" | "settings">;

/** Zulip's default email_notifications_batching_period_seconds. */
export const DEFAULT_BATCHING_PERIOD_SECONDS = 120;

export interface SentMessage {
  id: number;
  realmId: number;
  senderId: number;
  /** Null for a direct message. */
  channel: ChannelRow | null;
  topic: string;
}

export function notificationSettingsOf(user: Pick<UserRow, "settings">): NotificationSettings {
  const settings = {} as Record<keyof NotificationSettings, boolean>;
  for (const name of NOTIFICATION_SETTING_NAMES) settings[name] = settingOf(user.settings, name) === true;
  return settings;
}

export function batchingPeriodOf(user: Pick<UserRow, "settings">): number {
  const value = settingOf(user.settings, "email_notifications_batching_period_seconds");
  return typeof value === "number" ? value : DEFAULT_BATCHING_PERIOD_SECONDS;
}

/** Who a rendering mentions by name, and which groups it mentions (RenderResult's fields). */
export interface MentionSources {
  mentionedUserIds: Iterable<number>;
  mentionedGroupIds: Iterable<number>;
}

export interface EnqueueOptions {
  mentions?: MentionSources;
  /**
   * The message was edited and these are its newly mentioned recipients (Zulip's
   * maybe_enqueue_notifications_for_message_update): a mention notifies, but not when the message
   * notified them anyway (a direct message, or a channel or followed topic they get everything of).
   */
  edit?: boolean;
}

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

/** What the message would trigger for each recipient were they away (only those with something). */
async function triggersByRecipient(
  tx: Tx,
  message: SentMessage,
  users: readonly Recipient[],
  flagsOf: ReadonlyMap<number, number>,
  mutedSenderBy: ReadonlySet<number>,
  edit: boolean,
): Promise<Map<Recipient, Triggers>> {
  const ids = users.map((u) => u.id);
  const channel = message.channel;
  const subs = channel ? new Map((await getSubscriptionRows(tx, channel.recipient_id as number, ids)).filter((s) => s.active).map((s) => [s.user_id, s])) : new Map();
  const policies = channel ? await getTopicPolicies(tx, channel.id, message.topic, ids) : new Map<number, number>();
  const out = new Map<Recipient, Triggers>();
  for (const user of users) {
    const recipient = {
      userId: user.id,
      isBot: user.is_bot,
      isActive: user.is_active,
      settings: notificationSettingsOf(user),
      flags: flagsOf.get(user.id) ?? 0,
      subscription: subs.get(user.id) ?? null,
      visibilityPolicy: policies.get(user.id) ?? VISIBILITY.INHERIT,
      mutedSender: mutedSenderBy.has(user.id),
    };
    const kind = { senderId: message.senderId, direct: channel === null };
    const triggers = notificationTriggers(kind, recipient);
    if (edit) {
      // What the message would have triggered without the mention was sent with the original.
      const before = notificationTriggers(kind, { ...recipient, flags: recipient.flags & ~MENTION_BITS });
      if (before.email !== null) triggers.email = null;
      if (before.push !== null) triggers.push = null;
    }
    if (triggers.email !== null || triggers.push !== null) out.set(user, triggers);
  }
  return out;
}

/**
 * Which group mention reached each of `userIds` (Zulip's get_user_group_mentions_data): the
 * smallest mentioned group they are a member of, unless they were also mentioned by name.
 */
async function mentionedGroupByUser(tx: Tx, mentions: MentionSources | undefined, userIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const groupIds = [...(mentions?.mentionedGroupIds ?? [])];
  if (groupIds.length === 0 || userIds.length === 0) return out;
  const byName = new Set(mentions?.mentionedUserIds ?? []);
  const wanted = new Set(userIds.filter((id) => !byName.has(id)));
  const sizes = new Map<number, number>();
  for (const groupId of groupIds) {
    const members = await getGroupMemberIds(tx, [groupId]);
    sizes.set(groupId, members.length);
    for (const id of members) {
      const current = out.get(id);
      if (wanted.has(id) && (current === undefined || members.length < sizes.get(current)!)) out.set(id, groupId);
    }
  }
  return out;
}

/**
 * Writes the pending notifications of a message just sent. `rows` are its user_messages rows;
 * recipients whose copy starts read (the sender, those who muted the sender) are never notified.
 */
export async function enqueueMessageNotifications(
  deps: AppDeps,
  tx: Tx,
  message: SentMessage,
  rows: ReadonlyArray<{ user_id: number; flags: number }>,
  mutedSenderBy: ReadonlySet<number>,
  opts: EnqueueOptions = {},
): Promise<void> {
  if (opts.edit && message.channel === null) return;
  const unread = rows.filter((r) => r.user_id !== message.senderId && (r.flags & FLAG_BITS.read) === 0);
  if (unread.length === 0) return;
  const flagsOf = new Map(unread.map((r) => [r.user_id, r.flags]));
  // Every channel message reaches this: read the recipients from the realm's cached user list
  // (kept fresh by the realm versions) rather than one row each from the store.
  const users = await getListedUsersByIds(tx, message.realmId, [...flagsOf.keys()]);
  const candidates = await triggersByRecipient(tx, message, users, flagsOf, mutedSenderBy, opts.edit === true);
  if (candidates.size === 0) return;
  const now = deps.clock.now();
  const candidateIds = [...candidates.keys()].map((u) => u.id);
  const lastActive = await getLastActiveTimes(tx, candidateIds);
  const withQueue = await usersWithMessageQueue(deps, tx, candidateIds);
  const groupOf = await mentionedGroupByUser(tx, opts.mentions, [...candidates].filter(([, t]) => t.email === TRIGGER.MENTION || t.push === TRIGGER.MENTION).map(([u]) => u.id));
  const pending: NewPendingNotification[] = [];
  for (const [user, triggers] of candidates) {
    const idle = isIdle(withQueue.has(user.id), lastActive.get(user.id) ?? null, now);
    const { email, push } = decideNotifications(triggers, idle);
    const base = { user_id: user.id, message_id: message.id, mentioned_group_id: null };
    const group = { mentioned_group_id: groupOf.get(user.id) ?? null };
    if (email !== null) {
      const due = (await openEmailBatchDue(tx, user.id)) ?? now + batchingPeriodOf(user);
      pending.push({ ...base, ...(email === TRIGGER.MENTION ? group : {}), kind: "email", trigger: email, due_at: due });
    }
    if (push !== null && deps.config.pushBouncerUrl) pending.push({ ...base, ...(push === TRIGGER.MENTION ? group : {}), kind: "push", trigger: push, due_at: now });
  }
  if (pending.length === 0) return;
  await insertPendingNotifications(tx, pending);
  const soonest = Math.min(...pending.map((p) => p.due_at));
  tx.onCommit(() => deps.notifier?.wake(soonest));
}
