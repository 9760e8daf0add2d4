/**
 * The user's drafts, scheduled messages and reminders (issue 20): register's `drafts` (FL 87),
 * `scheduled_messages` (FL 179) and `reminders` (FL 399), kept in `state.register` and current by
 * their add / update / remove events (zulip-openapi.yaml /events).
 */
import type { ClientState } from "./client-state";
import type { ServerEvent } from "./types";

export interface Draft {
  id: number;
  /** "" for a draft with no recipient yet. */
  type: "stream" | "private" | "";
  /** [channel id] or the other people's ids. */
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: "stream" | "private";
  /** A channel id, or user ids. */
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

export interface Reminder {
  reminder_id: number;
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

export const draftsOf = (s: ClientState) => (s.register.drafts ?? []) as readonly Draft[];
export const scheduledOf = (s: ClientState) => (s.register.scheduled_messages ?? []) as readonly ScheduledMessage[];
export const remindersOf = (s: ClientState) => (s.register.reminders ?? []) as readonly Reminder[];

/** Replaces, adds or removes entries of one list by id. */
function changeList<T>(list: readonly T[], idOf: (item: T) => number, added: readonly T[], removedId?: number): T[] {
  const addedIds = new Set(added.map(idOf));
  return [...list.filter((item) => !addedIds.has(idOf(item)) && idOf(item) !== removedId), ...added];
}

export function applyComposeListEvent(state: ClientState, event: ServerEvent): ClientState {
  const register = state.register;
  switch (event.type) {
    case "drafts": {
      const added = event.op === "add" ? (event.drafts as Draft[]) : event.op === "update" ? [event.draft as Draft] : [];
      const drafts = changeList(draftsOf(state), (d) => d.id, added, event.op === "remove" ? (event.draft_id as number) : undefined);
      return { ...state, register: { ...register, drafts } };
    }
    case "scheduled_messages": {
      const added = event.op === "add" ? (event.scheduled_messages as ScheduledMessage[]) : event.op === "update" ? [event.scheduled_message as ScheduledMessage] : [];
      const removed = event.op === "remove" ? (event.scheduled_message_id as number) : undefined;
      const list = changeList(scheduledOf(state), (m) => m.scheduled_message_id, added, removed).sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
      return { ...state, register: { ...register, scheduled_messages: list } };
    }
    case "reminders": {
      const added = event.op === "add" ? (event.reminders as Reminder[]) : [];
      const removed = event.op === "remove" ? (event.reminder_id as number) : undefined;
      const list = changeList(remindersOf(state), (r) => r.reminder_id, added, removed).sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
      return { ...state, register: { ...register, reminders: list } };
    }
    default:
      return state;
  }
}
