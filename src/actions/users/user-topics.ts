/**
 * Per-user topic visibility (Zulip's user_topics): POST /user_topics, and the deprecated muted-topics
 * PATCH (spec 4.4), which is the same change restricted to muted/inherit. Setting a topic to its
 * current policy, or clearing a policy it does not have, succeeds and changes nothing (FL 169).
 */
import { accessChannel, invalidChannelId, invalidChannelName } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { normalizeTopic } from "../../lib/topics.js";
import { mergeSettings } from "../../lib/user-settings.js";
import { getChannelById, getChannelByName } from "../../store/channels.js";
import { transaction, type Tx } from "../../store/db.js";
import {
  deleteUserTopic,
  getUserTopic,
  getUserTopicsWithPolicy,
  insertUserTopic,
  updateUserTopic,
} from "../../store/topics.js";
import { getSubscription } from "../../store/subscriptions.js";
import type { ChannelRow, UserRow } from "../../store/types.js";

export const VISIBILITY_POLICY = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export const VISIBILITY_POLICIES: readonly number[] = Object.values(VISIBILITY_POLICY);

/** A channel named by id or by name (the deprecated endpoint takes exactly one of them). */
type ChannelRef = { id: number } | { name: string };

function lookUp(tx: Tx, user: UserRow, ref: ChannelRef): Promise<ChannelRow | undefined> {
  return "id" in ref ? getChannelById(tx, user.realm_id, ref.id) : getChannelByName(tx, user.realm_id, ref.name);
}

/**
 * A channel whose topics the user may give a policy: one whose messages they can read, and not
 * archived. `notFound` is the error for missing and inaccessible alike.
 */
async function channelToSetPolicy(tx: Tx, user: UserRow, ref: ChannelRef, notFound: () => ApiError): Promise<ChannelRow> {
  const { channel } = await accessChannel(tx, user, await lookUp(tx, user, ref), notFound, { requireContent: true });
  if (channel.deactivated) throw notFound();
  return channel;
}

/**
 * A channel whose topic policy the user may clear: any channel of the realm, so that someone who
 * lost access can still undo an old mute.
 */
async function channelToClearPolicy(tx: Tx, user: UserRow, ref: ChannelRef, notFound: () => ApiError): Promise<ChannelRow> {
  const channel = await lookUp(tx, user, ref);
  if (!channel) throw notFound();
  return channel;
}

/** Changes the row and, if anything changed, tells the user's clients. */
export async function doSetUserTopicVisibility(
  deps: AppDeps,
  tx: Tx,
  user: UserRow,
  channel: ChannelRow,
  topic: string,
  visibilityPolicy: number,
): Promise<void> {
  const now = deps.clock.now();
  const existing = await getUserTopic(tx, user.id, channel.id, topic);
  if (visibilityPolicy === VISIBILITY_POLICY.INHERIT) {
    if (!existing) return;
    await deleteUserTopic(tx, existing.id);
  } else if (!existing) {
    const row = { user_id: user.id, channel_id: channel.id, topic_name: topic, visibility_policy: visibilityPolicy, last_updated: now };
    // A concurrent request that set the same topic first wins; this one then changed nothing.
    if (!(await insertUserTopic(tx, row))) return;
  } else if (existing.visibility_policy === visibilityPolicy) {
    return;
  } else {
    await updateUserTopic(tx, existing.id, visibilityPolicy, now);
  }
  // The legacy muted_topics event (whole list of [channel name, topic, time]) still goes out for
  // clients that predate user_topic, as Zulip does.
  publishOnCommit(tx, deps.events, { type: "muted_topics", muted_topics: await getMutedTopicsList(tx, user.id) }, [user.id]);
  publishOnCommit(
    tx,
    deps.events,
    { type: "user_topic", stream_id: channel.id, topic_name: topic, last_updated: now, visibility_policy: visibilityPolicy },
    [user.id],
  );
}

/**
 * The legacy muted_topics list (register and events; FL 1 added the time): [channel name, topic,
 * when muted] for each muted topic of an active channel, replaced by user_topic at FL 134.
 */
export async function getMutedTopicsList(tx: Tx, userId: number): Promise<Array<[string, string, number]>> {
  const muted = await getUserTopicsWithPolicy(tx, userId, VISIBILITY_POLICY.MUTED);
  return muted.map((m) => [m.channel_name, m.topic_name, Number(m.last_updated)]);
}

/** The automatically_*_topics_policy value that acts whenever the user takes part in a topic. */
const ON_PARTICIPATION = 1;

/**
 * After the user takes part in a channel topic (reacting, for one), follow it, or unmute it in a
 * muted channel, when their settings ask for that on participation. These automatic changes only
 * ever raise visibility: a followed topic stays followed.
 */
export async function doFollowOnParticipation(deps: AppDeps, tx: Tx, user: UserRow, channel: ChannelRow, topic: string): Promise<void> {
  if (user.is_bot) return;
  const settings = mergeSettings(user.settings);
  const subscription = await getSubscription(tx, user.id, channel.recipient_id as number);
  if (!subscription?.active) return;
  let policy: number | null = null;
  if (settings.automatically_follow_topics_policy === ON_PARTICIPATION) policy = VISIBILITY_POLICY.FOLLOWED;
  else if (subscription.is_muted && settings.automatically_unmute_topics_in_muted_streams_policy === ON_PARTICIPATION) {
    policy = VISIBILITY_POLICY.UNMUTED;
  }
  if (policy === null) return;
  const current = (await getUserTopic(tx, user.id, channel.id, topic))?.visibility_policy;
  if (current === VISIBILITY_POLICY.FOLLOWED) return;
  await doSetUserTopicVisibility(deps, tx, user, channel, topic, policy);
}

/** POST /user_topics. */
export async function checkSetUserTopic(
  deps: AppDeps,
  user: UserRow,
  input: { channelId: number; topic: string; visibilityPolicy: number },
): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const ref = { id: input.channelId };
    const channel =
      input.visibilityPolicy === VISIBILITY_POLICY.INHERIT
        ? await channelToClearPolicy(tx, user, ref, invalidChannelId)
        : await channelToSetPolicy(tx, user, ref, invalidChannelId);
    await doSetUserTopicVisibility(deps, tx, user, channel, normalizeTopic(input.topic), input.visibilityPolicy);
  });
}

/** Exactly one of stream_id and stream, with Zulip's errors for neither and both. */
function channelRefFrom(streamId: number | undefined, streamName: string | undefined): ChannelRef {
  if (streamId === undefined && streamName === undefined) throw new ApiError("Missing 'stream_id' argument");
  if (streamId !== undefined && streamName !== undefined) {
    throw new ApiError("Unsupported parameter combination: stream_id, stream", "BAD_REQUEST", 400, { parameters: "stream_id, stream" });
  }
  return streamId !== undefined ? { id: streamId } : { name: streamName as string };
}

/** PATCH /users/me/subscriptions/muted_topics (deprecated, spec 4.4). */
export async function checkUpdateMutedTopic(
  deps: AppDeps,
  user: UserRow,
  input: { streamId?: number; streamName?: string; topic: string; op: "add" | "remove" },
): Promise<void> {
  const ref = channelRefFrom(input.streamId, input.streamName);
  await transaction(deps.store, async (tx) => {
    let channel: ChannelRow;
    if (input.op === "add") {
      const notFound = "id" in ref ? invalidChannelId : () => invalidChannelName(ref.name);
      channel = await channelToSetPolicy(tx, user, ref, notFound);
    } else {
      channel = await channelToClearPolicy(tx, user, ref, () => new ApiError("Topic is not muted"));
    }
    const policy = input.op === "add" ? VISIBILITY_POLICY.MUTED : VISIBILITY_POLICY.INHERIT;
    await doSetUserTopicVisibility(deps, tx, user, channel, normalizeTopic(input.topic), policy);
  });
}
