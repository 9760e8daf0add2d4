/**
 * A client's side of the events protocol (issue 5, zulip-facts section f): applies the events a
 * queue delivered to the state POST /register returned, following the meaning Zulip documents for
 * each event type and op (OpenAPI GET /events). The state-equivalence harness (verify-action.ts)
 * compares the result with a fresh register. This file holds the dispatcher and the message-related
 * sections (max_message_id, unread_msgs, starred_messages, recent_private_conversations); channels
 * and organization data live in apply-channel-events.ts and apply-org-events.ts.
 */
import { CHANNEL_HANDLERS } from "./apply-channel-events.js";
import { ORG_HANDLERS } from "./apply-org-events.js";
import { channelObjects, type ClientTraits, type Event, type Handler, type State } from "./event-state.js";

interface StreamBucket { stream_id: number; topic: string; unread_message_ids: number[] }
interface PmBucket { other_user_id: number; sender_id: number; unread_message_ids: number[] }
interface HuddleBucket { user_ids_string: string; unread_message_ids: number[] }

/** Where an unread message is filed in unread_msgs (Zulip's raw unread dicts). */
type UnreadPlace =
  | { kind: "stream"; stream_id: number; topic: string }
  | { kind: "pm"; other: number }
  | { kind: "huddle"; key: string };

const MENTION_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned"];

function recount(unread: State): void {
  const buckets = [...unread.pms, ...unread.streams, ...unread.huddles] as Array<{ unread_message_ids: number[] }>;
  unread.count = buckets.reduce((n, b) => n + b.unread_message_ids.length, 0);
}

function removeUnread(state: State, ids: readonly number[]): void {
  const unread = state.unread_msgs;
  if (!unread) return;
  const gone = new Set(ids);
  for (const key of ["pms", "streams", "huddles"]) {
    unread[key] = (unread[key] as Array<{ unread_message_ids: number[] }>)
      .map((b) => ({ ...b, unread_message_ids: b.unread_message_ids.filter((id) => !gone.has(id)) }))
      .filter((b) => b.unread_message_ids.length > 0);
  }
  unread.mentions = (unread.mentions as number[]).filter((id) => !gone.has(id));
  recount(unread);
}

function addUnread(state: State, id: number, place: UnreadPlace, mentioned: boolean): void {
  const unread = state.unread_msgs;
  if (!unread) return;
  const file = <B extends { unread_message_ids: number[] }>(list: B[], match: (b: B) => boolean, fresh: () => B) => {
    const bucket = list.find(match) ?? list[list.push(fresh()) - 1];
    if (!bucket.unread_message_ids.includes(id)) bucket.unread_message_ids.push(id);
    bucket.unread_message_ids.sort((a, b) => a - b);
  };
  if (place.kind === "stream") {
    file<StreamBucket>(unread.streams, (b) => b.stream_id === place.stream_id && b.topic === place.topic, () => ({
      stream_id: place.stream_id, topic: place.topic, unread_message_ids: [],
    }));
  } else if (place.kind === "pm") {
    file<PmBucket>(unread.pms, (b) => b.other_user_id === place.other, () => ({ other_user_id: place.other, sender_id: place.other, unread_message_ids: [] }));
  } else {
    file<HuddleBucket>(unread.huddles, (b) => b.user_ids_string === place.key, () => ({ user_ids_string: place.key, unread_message_ids: [] }));
  }
  if (mentioned && !unread.mentions.includes(id)) unread.mentions.push(id);
  recount(unread);
}

/** The unread place of a direct message among `participants` (all user ids, the viewer included). */
function directPlace(me: number, participants: readonly number[]): UnreadPlace {
  const others = [...new Set(participants)].filter((id) => id !== me);
  if (others.length <= 1) return { kind: "pm", other: others[0] ?? me };
  return { kind: "huddle", key: [...others, me].sort((a, b) => a - b).join(",") };
}

function onMessage(state: State, e: Event): void {
  const m = e.message;
  const me = state.user_id as number;
  if ("max_message_id" in state) state.max_message_id = Math.max(state.max_message_id, m.id);
  const participants = m.type === "private" ? (m.display_recipient as Array<{ id: number }>).map((r) => r.id) : [];
  if (!e.flags.includes("read")) {
    const place: UnreadPlace = m.type === "stream" ? { kind: "stream", stream_id: m.stream_id, topic: m.subject } : directPlace(me, participants);
    addUnread(state, m.id, place, e.flags.some((f: string) => MENTION_FLAGS.includes(f)));
  }
  if (m.type === "stream") {
    // Zulip sends no stream update for a channel's first message: clients fill first_message_id in.
    for (const c of channelObjects(state, m.stream_id)) if (c.first_message_id === null) c.first_message_id = m.id;
  } else if (state.recent_private_conversations) {
    const others = [...new Set(participants)].filter((id) => id !== me).sort((a, b) => a - b);
    const list = state.recent_private_conversations as Array<{ max_message_id: number; user_ids: number[] }>;
    const entry = list.find((c) => c.user_ids.join() === others.join());
    if (entry) entry.max_message_id = Math.max(entry.max_message_id, m.id);
    else list.push({ max_message_id: m.id, user_ids: others });
    list.sort((a, b) => b.max_message_id - a.max_message_id);
  }
}

/** Unread channel messages that an edit moved follow it to the new channel and topic. */
function onUpdateMessage(state: State, e: Event): void {
  const unread = state.unread_msgs;
  if (!unread) return;
  const ids = new Set<number>(e.message_ids ?? [e.message_id]);
  const unreadIds = new Set<number>([...unread.pms, ...unread.streams, ...unread.huddles].flatMap((b: State) => b.unread_message_ids));
  const moved = "new_stream_id" in e || ("subject" in e && "orig_subject" in e);
  if (moved) {
    const movedIds = (unread.streams as StreamBucket[]).flatMap((b) => b.unread_message_ids.filter((id) => ids.has(id)).map((id) => ({ id, b })));
    const mentions = new Set<number>(unread.mentions);
    removeUnread(state, movedIds.map((x) => x.id));
    for (const { id, b } of movedIds) {
      addUnread(state, id, { kind: "stream", stream_id: e.new_stream_id ?? b.stream_id, topic: e.subject ?? b.topic }, mentions.has(id));
    }
  }
  // A content edit can add or drop a mention: `flags` are the viewer's flags after the edit.
  if (e.rendering_only !== true && "content" in e && Array.isArray(e.flags) && unreadIds.has(e.message_id)) {
    const mentioned = e.flags.some((f: string) => MENTION_FLAGS.includes(f));
    unread.mentions = (unread.mentions as number[]).filter((id) => id !== e.message_id);
    if (mentioned) unread.mentions.push(e.message_id);
  }
}

function onDeleteMessage(state: State, e: Event): void {
  const ids: number[] = e.message_ids ?? [e.message_id];
  removeUnread(state, ids);
  if (state.starred_messages) state.starred_messages = (state.starred_messages as number[]).filter((id) => !ids.includes(id));
}

function onFlags(state: State, e: Event): void {
  const ids: number[] = e.messages;
  if (e.flag === "starred" && state.starred_messages) {
    const starred = new Set<number>(state.starred_messages);
    for (const id of ids) {
      if (e.op === "add") starred.add(id);
      else starred.delete(id);
    }
    state.starred_messages = [...starred];
  }
  if (e.flag !== "read") return;
  if (e.op === "add") {
    // The legacy `all` form marks everything read.
    const everything = () => [...state.unread_msgs.pms, ...state.unread_msgs.streams, ...state.unread_msgs.huddles].flatMap((b: State) => b.unread_message_ids);
    removeUnread(state, e.all === true ? everything() : ids);
    return;
  }
  // Marking unread: message_details says where each message belongs (FL 121).
  for (const id of ids) {
    const d = e.message_details[String(id)];
    const place: UnreadPlace =
      d.type === "stream" ? { kind: "stream", stream_id: d.stream_id, topic: d.topic } : directPlace(state.user_id, [...d.user_ids, state.user_id]);
    addUnread(state, id, place, d.mentioned === true);
  }
}

/** Events that carry no register state (they drive UI only). */
const STATELESS: Handler = () => undefined;

const MESSAGE_HANDLERS: Record<string, Handler> = {
  message: onMessage,
  update_message: onUpdateMessage,
  delete_message: onDeleteMessage,
  update_message_flags: onFlags,
  reaction: STATELESS,
  submessage: STATELESS,
  typing: STATELESS,
  typing_edit_message: STATELESS,
  heartbeat: STATELESS,
  invites_changed: STATELESS,
  attachment: STATELESS,
  // Data exports and export consents have no register state: clients fetch them by endpoint.
  realm_export: STATELESS,
  realm_export_consent: STATELESS,
};

const HANDLERS: Record<string, Handler> = { ...MESSAGE_HANDLERS, ...CHANNEL_HANDLERS, ...ORG_HANDLERS };

/** The state after `events`, as a client following Zulip's documented semantics would hold it. */
export function applyEvents(state: State, events: readonly Event[], client: ClientTraits = {}): State {
  const out = structuredClone(state);
  for (const e of events) {
    const handler = HANDLERS[e.type];
    if (!handler) throw new Error(`applyEvents: no handler for event type ${e.type}`);
    handler(out, e, client);
  }
  return out;
}
