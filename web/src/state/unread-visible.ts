/**
 * The unread counts the sidebar shows, leaving out what the reader muted as Zulip's web app does
 * (web/src/unread.ts there): a message in a muted topic, or in a muted channel unless its topic is
 * unmuted or followed, counts neither for its channel nor for the combined feed. Topic counts stay
 * whole (the topic list shows a muted topic's count when it is opened), and so do mentions and
 * direct messages. Recomputed only when the unread set, the topic policies or the subscriptions
 * change, so live user_topic and subscription events update the badges.
 */
import type { ClientState } from "./client-state";
import { topicKey, unreadCounts, type UnreadCounts } from "./unread";

/** Zulip's topic visibility policies (zulip-openapi.yaml, user_topic). */
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

interface Cached {
  userTopics: unknown;
  subscriptions: ClientState["subscriptions"];
  counts: UnreadCounts;
}

const cache = new WeakMap<ClientState["unread"], Cached>();

type TopicPolicy = { stream_id: number; topic_name: string; visibility_policy: number };

export function visibleUnreadCounts(state: ClientState): UnreadCounts {
  const userTopics = state.register.user_topics;
  const hit = cache.get(state.unread);
  if (hit && hit.userTopics === userTopics && hit.subscriptions === state.subscriptions) return hit.counts;
  const policies = new Map(((userTopics ?? []) as TopicPolicy[]).map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy]));
  const all = unreadCounts(state.unread);
  const counts: UnreadCounts = { ...all, total: all.dmTotal, byStream: new Map() };
  for (const [key, count] of all.byTopic) {
    const streamId = Number(key.slice(0, key.indexOf("\u0000")));
    const policy = policies.get(key);
    const channelMuted = state.subscriptions.get(streamId)?.is_muted === true;
    const muted = policy === MUTED || (channelMuted && policy !== UNMUTED && policy !== FOLLOWED);
    if (muted) continue;
    counts.byStream.set(streamId, (counts.byStream.get(streamId) ?? 0) + count);
    counts.total += count;
  }
  cache.set(state.unread, { userTopics, subscriptions: state.subscriptions, counts });
  return counts;
}
