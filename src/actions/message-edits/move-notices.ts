/**
 * Notification Bot notices about moved and resolved topics, worded as Zulip words them. Whether a
 * notice speaks of "this topic" or of some messages depends on what the mover can see: if no
 * message they can read is left behind (and none was already waiting at the destination), the
 * whole topic moved. A resolve posts "marked as resolved" instead of a move notice in the new topic.
 */
import type { AppDeps } from "../../deps.js";
import { realmUrl } from "../../lib/realm-url.js";
import { messageUrl, topicLinkSyntax } from "../../lib/topic-links.js";
import { mergeSettings } from "../../lib/user-settings.js";
import type { Membership } from "../../policy/group-settings.js";
import type { Tx } from "../../store/db.js";
import { getTopicPolicies } from "../../store/edits.js";
import { getSubscriberIds } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { countVisibleInTopic, type MovePlan, type MoveResult } from "./move-messages.js";
import { sendChannelNotice, silentMention } from "../bots/notification-bot.js";
import { VISIBILITY_POLICY } from "../users/user-topics.js";

export interface NoticeRequest {
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  contentEdited: boolean;
}

/**
 * Subscribers whose resolved_topic_notice_auto_read_policy leaves the notice read: everyone with
 * "always", and with "except_followed" (the default) those following none of `topics`.
 */
async function resolveNoticeReaders(tx: Tx, realm: RealmRow, channel: ChannelRow, topics: readonly string[]): Promise<number[]> {
  const subscribers = await getUsersByIds(tx, realm.id, await getSubscriberIds(tx, channel.recipient_id as number));
  const followers = new Set<number>();
  for (const topic of topics) {
    for (const [id, policy] of await getTopicPolicies(tx, channel.id, topic)) if (policy === VISIBILITY_POLICY.FOLLOWED) followers.add(id);
  }
  return subscribers
    .filter((u) => {
      const policy = mergeSettings(u.settings).resolved_topic_notice_auto_read_policy;
      return policy === "always" || (policy === "except_followed" && !followers.has(u.id));
    })
    .map((u) => u.id);
}

export async function sendMoveNotices(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  mover: Membership,
  plan: MovePlan,
  result: MoveResult,
  req: NoticeRequest,
): Promise<void> {
  const user = silentMention(mover.user);
  const { movedAll } = result;
  const skip = new Set(result.moved.map((m) => m.id));
  if (plan.resolveToggle !== null && !plan.channelEdited && !req.contentEdited) {
    const text = `${user} has marked this topic as ${plan.resolveToggle}.`;
    // Followers of the topic under either name see the notice unread.
    const readers = await resolveNoticeReaders(tx, realm, plan.orig, [plan.origTopic, plan.targetTopic]);
    const id = await sendChannelNotice(deps, tx, realm, plan.orig, plan.targetTopic, text, { actingUser: mover.user, readByUserIds: readers });
    if (id !== null) skip.add(id);
  }
  const count = result.moved.length;
  const oldPlace = topicLinkSyntax(plan.orig.id, plan.orig.name, plan.origTopic);
  const newPlace = topicLinkSyntax(plan.target.id, plan.target.name, plan.targetTopic);
  if (req.notifyNewThread && (plan.channelEdited || (plan.topicEdited && plan.resolveToggle === null))) {
    const alone = (await countVisibleInTopic(tx, mover, plan.target, plan.targetTopic, skip)) === 0;
    const link = messageUrl(realmUrl(deps.config.externalHost, realm.string_id), plan.target.id, plan.target.name, plan.targetTopic, plan.message.id);
    const text =
      alone && movedAll
        ? `This topic was moved here from ${oldPlace} by ${user}.`
        : count === 1
          ? `[A message](${link}) was moved here from ${oldPlace} by ${user}.`
          : `${count} messages were moved here from ${oldPlace} by ${user}.`;
    await sendChannelNotice(deps, tx, realm, plan.target, plan.targetTopic, text, { actingUser: mover.user });
  }
  if (req.notifyOldThread) {
    const text = movedAll
      ? `This topic was moved to ${newPlace} by ${user}.`
      : count === 1
        ? `A message was moved from this topic to ${newPlace} by ${user}.`
        : `${count} messages were moved from this topic to ${newPlace} by ${user}.`;
    await sendChannelNotice(deps, tx, realm, plan.orig, plan.origTopic, text, { actingUser: mover.user });
  }
}
