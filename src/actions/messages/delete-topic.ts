/**
 * Deleting a topic (Zulip's delete-topic, POST /streams/{id}/delete_topic; administrators only,
 * x-requires-administrator). As Zulip's delete_in_topic does: every message of the topic the
 * administrator can read is deleted in batches of the newest 100 (Zulip's retention
 * STREAM_MESSAGE_BATCH_SIZE, FL 147), each batch its own transaction with its own delete_message
 * event, so a large topic makes progress; once 50 seconds have passed no further batch starts and
 * the answer is `complete: false`, asking the client to repeat the request (FL 211). When the topic
 * is gone, the users' visibility policies for it are cleared (user_topic events), except, in a
 * channel with protected history, for users who still have messages of it they received.
 */
import { accessChannelById } from "../../access/channels.js";
import { canReadWithoutRow } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { normalizeTopic } from "../../lib/topics.js";
import { readTx, transaction } from "../../store/db.js";
import { getTopicMessages, getTopicPolicies } from "../../store/edits.js";
import type { ChannelRow, UserRow } from "../../store/types.js";
import { userHasTopicMessages } from "../../store/user-messages.js";
import { getUsersByIds } from "../../store/users.js";
import { doDeleteMessages } from "./delete-message.js";
import { doSetUserTopicVisibility, VISIBILITY_POLICY } from "../users/user-topics.js";

export const DELETE_TOPIC_BATCH_SIZE = 100;
/** Zulip stops starting batches after 50 seconds, well inside a proxy's request timeout. */
export const DELETE_TOPIC_TIME_BUDGET_SECONDS = 50;

export async function checkDeleteTopic(deps: AppDeps, user: UserRow, channelId: number, topicName: string): Promise<{ complete: boolean }> {
  // Zulip's access_stream_by_id: an active channel whose messages the administrator may read.
  const { channel } = await accessChannelById(readTx(deps.store), user, channelId, { requireContent: true, requireActive: true });
  const topic = normalizeTopic(topicName);
  const started = deps.clock.now();
  for (;;) {
    if (deps.clock.now() >= started + DELETE_TOPIC_TIME_BUDGET_SECONDS) return { complete: false };
    const deleted = await transaction(deps.store, async (tx) => {
      const fullHistory = await canReadWithoutRow(tx, user, channel);
      const batch = await getTopicMessages(tx, channel.recipient_id as number, topic, {
        newest: DELETE_TOPIC_BATCH_SIZE,
        withRowFor: fullHistory ? undefined : user.id,
      });
      await doDeleteMessages(deps, tx, user, batch, channel);
      return batch.length;
    });
    if (deleted === 0) break;
  }
  await clearTopicPolicies(deps, channel, topic);
  return { complete: true };
}

/** The topic no longer exists: clear the visibility policies users gave it (Zulip sets them to INHERIT). */
async function clearTopicPolicies(deps: AppDeps, channel: ChannelRow, topic: string): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const policies = await getTopicPolicies(tx, channel.id, topic);
    const users = await getUsersByIds(tx, channel.realm_id, [...policies.keys()]);
    for (const user of users.sort((a, b) => a.id - b.id)) {
      // With protected history, someone who received messages the administrator could not see keeps their policy.
      if (!channel.history_public_to_subscribers && (await userHasTopicMessages(tx, user.id, channel.recipient_id as number, topic))) continue;
      await doSetUserTopicVisibility(deps, tx, user, channel, topic, VISIBILITY_POLICY.INHERIT);
    }
  });
}
