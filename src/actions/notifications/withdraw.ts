/**
 * What becomes of pending and shown notifications when the user acts:
 * - messages read: their pushes not yet sent are dropped, and those the devices show get a
 *   "remove" (Zulip's handle_remove_push_notification); their emails need nothing here, as the
 *   email batch leaves out what is read when it goes;
 * - a notification setting turned off: the pending notifications it allowed are dropped, so
 *   turning email off stops the emails already waiting.
 */
import type { AppDeps } from "../../deps.js";
import { TRIGGER, type NotificationTrigger } from "../../policy/notifications.js";
import type { Tx } from "../../store/db.js";
import { DIGEST_TRIGGER } from "../../store/pending-notifications.js";
import { deletePendingForUser, deletePendingWithTriggers, insertPendingNotifications, takeActivePushes, type PendingKind } from "../../store/pending-notifications.js";

/** Messages just marked read by the user (`null`: all of them). */
export async function withdrawPushes(deps: AppDeps, tx: Tx, userId: number, messageIds: readonly number[] | null): Promise<void> {
  await deletePendingForUser(tx, userId, ["push"], messageIds ?? undefined);
  const shown = await takeActivePushes(tx, userId, messageIds ?? undefined);
  if (shown.length === 0 || !deps.config.pushBouncerUrl) return;
  const now = deps.clock.now();
  await insertPendingNotifications(tx, shown.map((message_id) => ({ user_id: userId, message_id, kind: "remove", trigger: "", mentioned_group_id: null, due_at: now })));
  tx.onCommit(() => deps.notifier?.wake(now));
}

const PERSONAL: string[] = [
  TRIGGER.DIRECT_MESSAGE, TRIGGER.MENTION, TRIGGER.TOPIC_WILDCARD_MENTION, TRIGGER.STREAM_WILDCARD_MENTION,
  TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC, TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC,
];
const WILDCARDS: NotificationTrigger[] = [TRIGGER.TOPIC_WILDCARD_MENTION, TRIGGER.STREAM_WILDCARD_MENTION];
const FOLLOWED_WILDCARDS: NotificationTrigger[] = [TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC, TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC];

/** Which pending rows each setting allowed, by the kinds it governs (policy/notifications.ts). */
const ALLOWED_BY: Record<string, Array<[PendingKind, readonly string[]]>> = {
  enable_offline_email_notifications: [["email", PERSONAL]],
  enable_offline_push_notifications: [["push", PERSONAL]],
  enable_stream_email_notifications: [["email", [TRIGGER.STREAM_EMAIL]]],
  enable_stream_push_notifications: [["push", [TRIGGER.STREAM_PUSH]]],
  enable_followed_topic_email_notifications: [["email", [TRIGGER.FOLLOWED_TOPIC_EMAIL]]],
  enable_followed_topic_push_notifications: [["push", [TRIGGER.FOLLOWED_TOPIC_PUSH]]],
  wildcard_mentions_notify: [["email", WILDCARDS], ["push", WILDCARDS]],
  enable_followed_topic_wildcard_mentions_notify: [["email", FOLLOWED_WILDCARDS], ["push", FOLLOWED_WILDCARDS]],
  enable_digest_emails: [["digest", [DIGEST_TRIGGER]]],
};

/**
 * Settings just changed: those turned off drop what they allowed. (A channel whose own setting
 * overrides the default is not consulted: a row for it goes too, as the user asked for less.)
 */
export async function cancelForSettings(tx: Tx, userId: number, changed: ReadonlyArray<[string, unknown]>): Promise<void> {
  for (const [name, value] of changed) {
    if (value !== false) continue;
    for (const [kind, triggers] of ALLOWED_BY[name] ?? []) await deletePendingWithTriggers(tx, userId, kind, triggers);
  }
}
