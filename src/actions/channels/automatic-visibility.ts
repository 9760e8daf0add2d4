/**
 * Topics followed or unmuted automatically when a message is sent (Zulip's do_send_messages, FL
 * 214 and 235): the sender's automatically_follow_topics_policy and
 * automatically_unmute_topics_in_muted_streams_policy, and the mentioned users'
 * automatically_follow_topics_where_mentioned. These changes only ever raise a topic's visibility
 * (a followed topic is never made merely unmuted), each one announced by `user_topic` (and the
 * legacy `muted_topics`) like a change by hand. POST /messages answers the sender's new policy
 * as automatic_new_visibility_policy (FL 218).
 */
import type { AppDeps } from "../../deps.js";
import { settingOf } from "../../lib/user-settings.js";
import type { Tx } from "../../store/db.js";
import { topicExists } from "../../store/messages.js";
import { getSubscription } from "../../store/subscriptions.js";
import { getUserTopic } from "../../store/topics.js";
import type { ChannelRow, UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { VISIBILITY_POLICY, doSetUserTopicVisibility } from "../users/user-topics.js";

/** Zulip's AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_* values. */
export const AUTOMATIC_POLICY = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

const FOLLOW = "automatically_follow_topics_policy";
const UNMUTE = "automatically_unmute_topics_in_muted_streams_policy";

/** Whether a policy acts on this send: any send for "participation" and "send", the topic's first message for "initiation". */
function actsOnSend(policy: unknown, startsTopic: () => boolean): boolean {
  return policy === AUTOMATIC_POLICY.ON_PARTICIPATION || policy === AUTOMATIC_POLICY.ON_SEND || (policy === AUTOMATIC_POLICY.ON_INITIATION && startsTopic());
}

/** Zulip's should_change_visibility_policy: a change, and never from followed down to unmuted. */
async function raisesVisibility(tx: Tx, user: UserRow, channel: ChannelRow, topic: string, policy: number): Promise<boolean> {
  const current = (await getUserTopic(tx, user.id, channel.id, topic))?.visibility_policy ?? VISIBILITY_POLICY.INHERIT;
  return current !== policy && !(policy === VISIBILITY_POLICY.UNMUTED && current === VISIBILITY_POLICY.FOLLOWED);
}

/**
 * Whether the message about to be written starts its topic: asked before the message row is
 * written, and only when a setting depends on it (one query saved on most sends).
 */
export async function startsTopicIfAsked(tx: Tx, sender: UserRow, channel: ChannelRow | null, topic: string): Promise<boolean | null> {
  if (!channel || sender.is_bot) return null;
  const asks = [FOLLOW, UNMUTE].some((name) => settingOf(sender.settings, name) === AUTOMATIC_POLICY.ON_INITIATION);
  return asks ? !(await topicExists(tx, channel.recipient_id as number, topic)) : null;
}

/** The sender's automatic follow or unmute after sending to a channel topic; the policy set, if any. */
export async function doAutomaticVisibilityOnSend(
  deps: AppDeps,
  tx: Tx,
  sender: UserRow,
  channel: ChannelRow,
  topic: string,
  startsTopic: boolean | null,
): Promise<number | null> {
  if (sender.is_bot) return null;
  const starts = () => startsTopic === true;
  let policy: number | null = null;
  if (actsOnSend(settingOf(sender.settings, FOLLOW), starts)) policy = VISIBILITY_POLICY.FOLLOWED;
  else if (actsOnSend(settingOf(sender.settings, UNMUTE), starts)) {
    const subscription = await getSubscription(tx, sender.id, channel.recipient_id as number);
    if (subscription?.active && subscription.is_muted) policy = VISIBILITY_POLICY.UNMUTED;
  }
  if (policy === null || !(await raisesVisibility(tx, sender, channel, topic, policy))) return null;
  await doSetUserTopicVisibility(deps, tx, sender, channel, topic, policy);
  return policy;
}

/**
 * Users the message mentions by name (not silently, not through a group or wildcard) who receive
 * it and asked to follow topics where they are mentioned (FL 235) follow the topic.
 */
export async function doFollowWhereMentioned(
  deps: AppDeps,
  tx: Tx,
  realmId: number,
  channel: ChannelRow,
  topic: string,
  mentionedIds: ReadonlySet<number>,
  recipientIds: readonly number[],
): Promise<void> {
  if (mentionedIds.size === 0) return;
  const ids = recipientIds.filter((id) => mentionedIds.has(id));
  for (const user of await getUsersByIds(tx, realmId, ids)) {
    if (user.is_bot || !user.is_active || settingOf(user.settings, "automatically_follow_topics_where_mentioned") !== true) continue;
    if (await raisesVisibility(tx, user, channel, topic, VISIBILITY_POLICY.FOLLOWED)) {
      await doSetUserTopicVisibility(deps, tx, user, channel, topic, VISIBILITY_POLICY.FOLLOWED);
    }
  }
}
