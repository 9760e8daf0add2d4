/**
 * Unread messages by conversation, built from register's `unread_msgs` and kept current by
 * message, update_message_flags (read), update_message (moves) and delete_message events. Each
 * unread id maps to where it lives, so a move or a read only touches the ids it names.
 */
import type { Message, UnreadMsgs } from "./types";

export type UnreadPlace = { kind: "stream"; streamId: number; topic: string } | { kind: "dm"; key: string };

export interface UnreadState {
  places: ReadonlyMap<number, UnreadPlace>;
  mentions: ReadonlySet<number>;
}

/** A DM conversation's key: the other participants' ids, sorted, or the user's own id for a self-DM. */
export function dmKey(userIds: readonly number[], myId: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== myId).sort((a, b) => a - b);
  return others.length === 0 ? String(myId) : others.join(",");
}

export function dmKeyOfMessage(message: Message, myId: number): string {
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  return dmKey([...recipients, message.sender_id], myId);
}

export function unreadFromRegister(unread: UnreadMsgs, myId: number): UnreadState {
  const places = new Map<number, UnreadPlace>();
  for (const s of unread.streams) for (const id of s.unread_message_ids) places.set(id, { kind: "stream", streamId: s.stream_id, topic: s.topic });
  for (const p of unread.pms) for (const id of p.unread_message_ids) places.set(id, { kind: "dm", key: dmKey([p.other_user_id], myId) });
  for (const h of unread.huddles) {
    const key = dmKey(h.user_ids_string.split(",").map(Number), myId);
    for (const id of h.unread_message_ids) places.set(id, { kind: "dm", key });
  }
  return { places, mentions: new Set(unread.mentions) };
}

export function placeOfMessage(message: Message, myId: number): UnreadPlace {
  return message.type === "stream"
    ? { kind: "stream", streamId: message.stream_id ?? 0, topic: message.subject }
    : { kind: "dm", key: dmKeyOfMessage(message, myId) };
}

export function addUnread(state: UnreadState, entries: ReadonlyArray<[number, UnreadPlace, boolean]>): UnreadState {
  if (entries.length === 0) return state;
  const places = new Map(state.places);
  const mentions = new Set(state.mentions);
  for (const [id, place, mentioned] of entries) {
    places.set(id, place);
    if (mentioned) mentions.add(id);
  }
  return { places, mentions };
}

export function removeUnread(state: UnreadState, ids: readonly number[] | "all"): UnreadState {
  if (ids === "all") return { places: new Map(), mentions: new Set() };
  if (!ids.some((id) => state.places.has(id))) return state;
  const places = new Map(state.places);
  const mentions = new Set(state.mentions);
  for (const id of ids) {
    places.delete(id);
    mentions.delete(id);
  }
  return { places, mentions };
}

/** Moves unread ids to a new channel and/or topic (update_message with a move). */
export function moveUnread(state: UnreadState, ids: readonly number[], streamId: number | undefined, topic: string | undefined): UnreadState {
  if (!ids.some((id) => state.places.has(id))) return state;
  const places = new Map(state.places);
  for (const id of ids) {
    const place = places.get(id);
    if (place?.kind !== "stream") continue;
    places.set(id, { kind: "stream", streamId: streamId ?? place.streamId, topic: topic ?? place.topic });
  }
  return { places, mentions: state.mentions };
}

export interface UnreadCounts {
  total: number;
  byStream: Map<number, number>;
  byTopic: Map<string, number>;
  byDm: Map<string, number>;
  dmTotal: number;
  mentions: number;
}

export const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;

const countsCache = new WeakMap<UnreadState, UnreadCounts>();

/** Counts per channel, topic (case-insensitive, as Zulip compares topics) and DM conversation, memoized. */
export function unreadCounts(state: UnreadState): UnreadCounts {
  const cached = countsCache.get(state);
  if (cached) return cached;
  const counts: UnreadCounts = { total: state.places.size, byStream: new Map(), byTopic: new Map(), byDm: new Map(), dmTotal: 0, mentions: state.mentions.size };
  const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const place of state.places.values()) {
    if (place.kind === "stream") {
      bump(counts.byStream, place.streamId);
      bump(counts.byTopic, topicKey(place.streamId, place.topic));
    } else {
      bump(counts.byDm, place.key);
      counts.dmTotal++;
    }
  }
  countsCache.set(state, counts);
  return counts;
}
