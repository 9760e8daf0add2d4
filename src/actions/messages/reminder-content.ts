/**
 * The text of a reminder (Zulip's get_reminder_formatted_content, zerver/lib/reminders.py, as of
 * Zulip 12): what Notification Bot sends the user at the time they chose. It says which message
 * the reminder is about, with the user's note (FL 415) quoted, who wrote the message with a link
 * to it, where it was sent, and the message itself in a quote block (polls and to-do lists are only
 * named). The quote is cut so that the whole stays within a message's 10,000 characters.
 */
import { directMessageUrl, messageUrl, topicWithMessageLink } from "../../lib/topic-links.js";
import { MESSAGE_TYPE, type ChannelRow, type MessageRow, type UserRow } from "../../store/types.js";
import { unusedFence } from "../../lib/notice-syntax.js";
import { mentionList, silentMention } from "../bots/notification-bot.js";
import { MAX_MESSAGE_LENGTH, truncateContent } from "./send-message.js";

/** Zulip's MAX_REMINDER_NOTE_LENGTH (register's max_reminder_note_length). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

type Person = Pick<UserRow, "id" | "full_name">;

export interface ReminderSubject {
  realmUrl: string;
  message: Pick<MessageRow, "id" | "type" | "subject" | "content">;
  sender: Person;
  /** The channel of a channel message; null for a direct message. */
  channel: Pick<ChannelRow, "id" | "name"> | null;
  /** A direct message's participants, its sender included. */
  participants: readonly Person[];
  /** Who asked for the reminder. */
  userId: number;
  note: string;
}


/** Zulip's widgets: a message starting with /poll or /todo is shown as one, not quoted. */
function widgetOf(content: string): string | null {
  if (content.startsWith("/poll")) return "poll";
  if (content.startsWith("/todo")) return "todo list";
  return null;
}

/** A note as stored: trailing space and leading blank lines dropped, at most 1000 characters. */
export function normalizeReminderNote(note: string): string {
  return note.trimEnd().replace(/^\n+/, "");
}

export function reminderContent(s: ReminderSubject): string {
  const channelMessage = s.message.type === MESSAGE_TYPE.CHANNEL && s.channel !== null;
  const what = channelMessage ? "message" : "direct message";
  let content = s.note ? `You requested a reminder for the following ${what}. Note:\n > ${s.note}` : `You requested a reminder for the following ${what}.`;
  content += "\n\n";

  const widget = widgetOf(s.message.content);
  const participantIds = s.participants.map((p) => p.id);
  const url = channelMessage
    ? messageUrl(s.realmUrl, s.channel!.id, s.channel!.name, s.message.subject, s.message.id)
    : directMessageUrl(s.realmUrl, participantIds, s.message.id);
  const noteToSelf = !channelMessage && participantIds.every((id) => id === s.userId);
  const author = silentMention(s.sender);
  if (noteToSelf) {
    content += widget ? `You [sent](${url}) yourself a ${widget}.` : `You [sent](${url}) a note to yourself:`;
  } else {
    let where: string;
    if (channelMessage) {
      where = `in ${topicWithMessageLink(s.channel!.id, s.channel!.name, s.message.subject, s.message.id)}`;
    } else {
      const others = s.participants.filter((p) => p.id !== s.sender.id).sort((a, b) => a.id - b.id);
      where = `to ${mentionList(others.length > 0 ? others : [s.sender])}`;
    }
    content += widget ? `${author} [sent](${url}) a ${widget} ${where}.` : `${author} [said](${url}) ${where}:`;
  }
  if (widget) return content;

  content += "\n";
  const fence = unusedFence(content + s.message.content);
  const frame = (body: string) => `${fence}quote\n${body}\n${fence}`;
  const room = MAX_MESSAGE_LENGTH - [...(content + frame(""))].length;
  return content + frame(truncateContent(s.message.content, room));
}
