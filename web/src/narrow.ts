/**
 * What a narrow means to the API and to the reader: its GET /messages `narrow` operators
 * (zulip-openapi.yaml, "Construct a narrow"), its title, whether a live message belongs in it,
 * and where the compose box sends from it.
 */
import type { Narrow } from "./router";
import { userName, type ClientState } from "./state/client-state";
import type { Message } from "./state/types";
import { searchNarrow } from "./search-query";
import { dmKey, dmKeyOfMessage } from "./state/unread";

export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}

export function apiNarrow(narrow: Narrow): NarrowTerm[] {
  switch (narrow.kind) {
    case "all":
      // Zulip's combined feed: muted channels and topics stay out (the server applies in:home).
      return [{ operator: "in", operand: "home" }];
    case "channel":
      return [{ operator: "channel", operand: narrow.streamId }];
    case "topic":
      return [
        { operator: "channel", operand: narrow.streamId },
        { operator: "topic", operand: narrow.topic },
      ];
    case "dm":
      return [{ operator: "dm", operand: narrow.userIds }];
    case "search":
      return searchNarrow(narrow.query);
    case "starred":
      return [{ operator: "is", operand: "starred" }];
    case "mentions":
      return [{ operator: "is", operand: "mentioned" }];
  }
}

export function channelName(state: ClientState, streamId: number): string {
  return state.channels.get(streamId)?.name ?? `Unknown channel ${streamId}`;
}

export function dmTitle(state: ClientState, userIds: readonly number[]): string {
  const others = userIds.filter((id) => id !== state.userId);
  return (others.length === 0 ? [state.userId] : others).map((id) => userName(state, id)).join(", ");
}

export function narrowTitle(state: ClientState, narrow: Narrow): string {
  switch (narrow.kind) {
    case "all":
      return "Combined feed";
    case "channel":
      return `#${channelName(state, narrow.streamId)}`;
    case "topic":
      return `#${channelName(state, narrow.streamId)} › ${narrow.topic || "general chat"}`;
    case "dm":
      return `Direct messages with ${dmTitle(state, narrow.userIds)}`;
    case "search":
      return `Search: ${narrow.query}`;
    case "starred":
      return "Starred messages";
    case "mentions":
      return "Mentions";
  }
}

/** Whether a newly arrived message belongs in the open narrow (search results are not live). */
export function messageMatchesNarrow(message: Message, narrow: Narrow, myId: number): boolean {
  switch (narrow.kind) {
    case "all":
      return true;
    case "channel":
      return message.type === "stream" && message.stream_id === narrow.streamId;
    case "topic":
      return message.type === "stream" && message.stream_id === narrow.streamId && message.subject.toLowerCase() === narrow.topic.toLowerCase();
    case "dm":
      return message.type === "private" && dmKeyOfMessage(message, myId) === dmKey(narrow.userIds, myId);
    case "mentions":
      return message.flags.some((f) => f === "mentioned" || f.endsWith("wildcard_mentioned"));
    case "starred":
      return message.flags.includes("starred");
    case "search":
      return false;
  }
}

/** Where compose sends from a narrow: a channel (and topic), people, or nothing chosen yet. */
export type ComposeTarget = { kind: "stream"; streamId: number | null; topic: string } | { kind: "dm"; userIds: number[] };

export function composeTargetFor(narrow: Narrow, myId: number): ComposeTarget {
  if (narrow.kind === "channel") return { kind: "stream", streamId: narrow.streamId, topic: "" };
  if (narrow.kind === "topic") return { kind: "stream", streamId: narrow.streamId, topic: narrow.topic };
  if (narrow.kind === "dm") return { kind: "dm", userIds: narrow.userIds.filter((id) => id !== myId) };
  return { kind: "stream", streamId: null, topic: "" };
}

/** The narrow a reply to `message` belongs in (clicking a message's recipient bar). */
export function narrowOfMessage(message: Message, myId: number): Narrow {
  if (message.type === "stream") return { kind: "topic", streamId: message.stream_id ?? 0, topic: message.subject };
  const key = dmKeyOfMessage(message, myId);
  return { kind: "dm", userIds: key.split(",").map(Number) };
}
