/**
 * Applies one GET /events event to the client state (zulip-openapi.yaml /events): messages, flags,
 * edits and moves, deletions and typing here; people, channels and realm settings in
 * apply-org-event.ts. Unknown event types leave the state as it is.
 */
import { applyOrgEvent } from "./apply-org-event";
import { conversationKey, type ClientState, type TypingEntry } from "./client-state";
import { mergePresences, type RawPresence } from "./presence";
import type { Message, ServerEvent, TopicInfo } from "./types";
import { addUnread, dmKey, moveUnread, placeOfMessage, removeUnread, type UnreadPlace } from "./unread";
import { applyComposeListEvent } from "./compose-lists";

/** Adds a topic (or moves it to the front with a newer max id) in a loaded topic list. */
function touchTopic(topics: ClientState["topics"], streamId: number, name: string, messageId: number): ClientState["topics"] {
  const list = topics.get(streamId);
  if (!list) return topics;
  const rest = list.filter((t) => t.name.toLowerCase() !== name.toLowerCase());
  const previous = list.find((t) => t.name.toLowerCase() === name.toLowerCase());
  const entry: TopicInfo = { name, max_id: Math.max(messageId, previous?.max_id ?? 0) };
  return new Map(topics).set(streamId, [entry, ...rest].sort((a, b) => b.max_id - a.max_id));
}

function onMessage(state: ClientState, event: ServerEvent): ClientState {
  const message = event.message as Message;
  const flags = (event.flags as string[] | undefined) ?? message.flags ?? [];
  let next = state;
  if (!flags.includes("read")) {
    const mentioned = flags.includes("mentioned") || flags.includes("stream_wildcard_mentioned") || flags.includes("topic_wildcard_mentioned");
    next = { ...next, unread: addUnread(next.unread, [[message.id, placeOfMessage(message, state.userId), mentioned]]) };
  }
  if (message.type === "stream" && message.stream_id !== undefined) {
    next = { ...next, topics: touchTopic(next.topics, message.stream_id, message.subject, message.id) };
  } else if (Array.isArray(message.display_recipient)) {
    const ids = message.display_recipient.map((r) => r.id).filter((id) => id !== state.userId).sort((a, b) => a - b);
    const others = next.recentDms.filter((c) => c.user_ids.join(",") !== ids.join(","));
    next = { ...next, recentDms: [{ user_ids: ids, max_message_id: message.id }, ...others] };
  }
  // A message ends its sender's typing in that conversation (Zulip's web app does the same).
  return { ...next, typing: next.typing.filter((t) => t.senderId !== message.sender_id) };
}

function onFlags(state: ClientState, event: ServerEvent): ClientState {
  const ids = (event.messages as number[]) ?? [];
  const add = event.op === "add";
  if (event.flag === "starred") {
    const starred = new Set(state.starred);
    for (const id of ids) {
      if (add) starred.add(id);
      else starred.delete(id);
    }
    return { ...state, starred };
  }
  if (event.flag !== "read") return state;
  if (add) return { ...state, unread: removeUnread(state.unread, event.all ? "all" : ids) };
  // Marked unread again: message_details says where each message lives.
  const details = (event.message_details ?? {}) as Record<string, { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }>;
  const entries: Array<[number, UnreadPlace, boolean]> = [];
  for (const [id, d] of Object.entries(details)) {
    const place: UnreadPlace = d.type === "stream" ? { kind: "stream", streamId: d.stream_id ?? 0, topic: d.topic ?? "" } : { kind: "dm", key: dmKey(d.user_ids ?? [], state.userId) };
    entries.push([Number(id), place, Boolean(d.mentioned)]);
  }
  return { ...state, unread: addUnread(state.unread, entries) };
}

function onUpdateMessage(state: ClientState, event: ServerEvent): ClientState {
  const ids = (event.message_ids as number[] | undefined) ?? [];
  const newStream = event.new_stream_id as number | undefined;
  const newTopic = event.subject as string | undefined;
  if (newStream === undefined && newTopic === undefined) return state;
  let topics = state.topics;
  const from = event.stream_id as number | undefined;
  // A move changes which topics exist; reloading the lists is simpler than replaying it.
  for (const streamId of [from, newStream]) {
    if (streamId !== undefined && topics.has(streamId)) {
      topics = new Map(topics);
      (topics as Map<number, readonly TopicInfo[]>).delete(streamId);
    }
  }
  return { ...state, topics, unread: moveUnread(state.unread, ids, newStream, newTopic) };
}

function typingConversation(state: ClientState, event: ServerEvent): string {
  if (event.message_type === "stream") return conversationKey({ streamId: Number(event.stream_id), topic: String(event.topic ?? "") });
  const recipients = ((event.recipients as Array<{ user_id: number }> | undefined) ?? []).map((r) => r.user_id);
  return conversationKey({ dmKey: dmKey(recipients, state.userId) });
}

function onTyping(state: ClientState, event: ServerEvent, now: number): ClientState {
  const senderId = (event.sender as { user_id: number }).user_id;
  if (senderId === state.userId) return state;
  const conversation = typingConversation(state, event);
  const others = state.typing.filter((t) => !(t.senderId === senderId && t.conversation === conversation) && t.expiresAt > now);
  if (event.op !== "start") return { ...state, typing: others };
  // Spec 4.1 rule 4: shown until a stop, or until the expiry period passes without a new start.
  const entry: TypingEntry = { senderId, conversation, expiresAt: now + state.typingPeriods.startedExpiryMs };
  return { ...state, typing: [...others, entry] };
}

/** Drops typing entries whose expiry has passed (called by a timer). */
export function expireTyping(state: ClientState, now: number): ClientState {
  const live = state.typing.filter((t) => t.expiresAt > now);
  return live.length === state.typing.length ? state : { ...state, typing: live };
}

export function applyEvent(state: ClientState, event: ServerEvent, now = Date.now()): ClientState {
  switch (event.type) {
    case "drafts":
    case "scheduled_messages":
    case "reminders":
      return applyComposeListEvent(state, event);
    case "message":
      return onMessage(state, event);
    case "update_message_flags":
      return onFlags(state, event);
    case "update_message":
      return onUpdateMessage(state, event);
    case "delete_message": {
      const ids = (event.message_ids as number[] | undefined) ?? (event.message_id !== undefined ? [event.message_id as number] : []);
      return { ...state, unread: removeUnread(state.unread, ids) };
    }
    case "typing":
      return onTyping(state, event, now);
    case "presence": // simplified_presence_events: the changed users' times, keyed by id
      return { ...state, presence: mergePresences(state.presence, event.presences as Record<string, RawPresence> | undefined) };
    default:
      return applyOrgEvent(state, event);
  }
}
