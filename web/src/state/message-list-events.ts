/**
 * Keeps an open message list current from events (zulip-openapi.yaml /events): new messages in
 * the narrow, edits and moves (with the "edited"/"moved" markers), reactions, flags and
 * deletions. Pure, so the rules are tested without a browser.
 */
import { messageMatchesNarrow } from "../narrow";
import type { Narrow } from "../router";
import type { Message, Reaction, ServerEvent } from "./types";

export interface ListContext {
  narrow: Narrow;
  myId: number;
  /** Whether the list reaches the newest message (only then do new messages belong at its end). */
  foundNewest: boolean;
  channelName: (streamId: number) => string;
  /** Whether the combined feed leaves this message out (muted channel or topic). */
  mutedInFeed: (message: Message) => boolean;
}

function patch(messages: Message[], ids: ReadonlySet<number>, change: (m: Message) => Message): Message[] {
  let changed = false;
  const next = messages.map((m) => {
    if (!ids.has(m.id)) return m;
    changed = true;
    return change(m);
  });
  return changed ? next : messages;
}

function onUpdateMessage(messages: Message[], event: ServerEvent, ctx: ListContext): Message[] {
  const ids = new Set<number>((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
  const at = event.edit_timestamp as number | undefined;
  const newStream = event.new_stream_id as number | undefined;
  const newTopic = event.subject as string | undefined;
  const moved = newStream !== undefined || (newTopic !== undefined && newTopic !== event.orig_subject);
  let next = messages;
  if (typeof event.rendered_content === "string") {
    // rendering_only: the server re-rendered (e.g. a link preview arrived); nobody edited it.
    next = patch(next, new Set([event.message_id as number]), (m) => ({
      ...m,
      content: event.rendered_content as string,
      match_content: undefined, // the old highlights no longer fit the new text
      ...(event.rendering_only || at === undefined ? {} : { last_edit_timestamp: at }),
    }));
  }
  if (moved) {
    next = patch(next, ids, (m) => ({
      ...m,
      ...(newStream !== undefined ? { stream_id: newStream, display_recipient: ctx.channelName(newStream) } : {}),
      ...(newTopic !== undefined ? { subject: newTopic } : {}),
      ...(at !== undefined ? { last_moved_timestamp: at } : {}),
    }));
    // Messages moved out of a channel or topic narrow leave it.
    if (ctx.narrow.kind === "channel" || ctx.narrow.kind === "topic") next = next.filter((m) => !ids.has(m.id) || messageMatchesNarrow(m, ctx.narrow, ctx.myId));
  }
  return next;
}

function onReaction(messages: Message[], event: ServerEvent): Message[] {
  const reaction: Reaction = {
    emoji_name: event.emoji_name as string,
    emoji_code: event.emoji_code as string,
    reaction_type: event.reaction_type as Reaction["reaction_type"],
    user_id: event.user_id as number,
  };
  const same = (r: Reaction) => r.user_id === reaction.user_id && r.emoji_code === reaction.emoji_code && r.reaction_type === reaction.reaction_type;
  return patch(messages, new Set([event.message_id as number]), (m) => ({
    ...m,
    reactions: event.op === "add" ? [...m.reactions.filter((r) => !same(r)), reaction] : m.reactions.filter((r) => !same(r)),
  }));
}

function onFlags(messages: Message[], event: ServerEvent): Message[] {
  const flag = event.flag as string;
  const change = (m: Message): Message => ({
    ...m,
    flags: event.op === "add" ? [...new Set([...m.flags, flag])] : m.flags.filter((f) => f !== flag),
  });
  if (event.all) return messages.map(change);
  return patch(messages, new Set(event.messages as number[]), change);
}

export function applyEventToList(messages: Message[], event: ServerEvent, ctx: ListContext): Message[] {
  switch (event.type) {
    case "message": {
      const message = { ...(event.message as Message), flags: (event.flags as string[] | undefined) ?? [] };
      if (!ctx.foundNewest || messages.some((m) => m.id === message.id)) return messages;
      if (!messageMatchesNarrow(message, ctx.narrow, ctx.myId)) return messages;
      if (ctx.narrow.kind === "all" && ctx.mutedInFeed(message)) return messages;
      return [...messages, message];
    }
    case "update_message":
      return onUpdateMessage(messages, event, ctx);
    case "reaction":
      return onReaction(messages, event);
    case "update_message_flags":
      return onFlags(messages, event);
    case "delete_message": {
      const ids = new Set<number>((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
      return messages.some((m) => ids.has(m.id)) ? messages.filter((m) => !ids.has(m.id)) : messages;
    }
    default:
      return messages;
  }
}
