/**
 * A message's edit history (spec 4.15, GET /messages/{id}/history): snapshots oldest to newest.
 * The stored rows say what each edit changed; walking them back from the message's current state
 * recovers the content and topic after every edit. The first snapshot is the message as sent and
 * holds only topic, content, rendered_content, timestamp and user_id.
 */
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { DiffBudget, highlightHtmlDifferences } from "../../lib/html-diff.js";
import { displayTopic } from "../../lib/topics.js";
import { readTx } from "../../store/db.js";
import { getEditsForMessages } from "../../store/messages.js";
import { MESSAGE_TYPE, type RealmRow, type UserRow } from "../../store/types.js";

export async function getMessageHistory(
  deps: AppDeps,
  realm: RealmRow,
  user: UserRow,
  messageId: number,
  allowEmptyTopicName: boolean,
): Promise<{ message_history: Record<string, unknown>[] }> {
  if (!realm.allow_edit_history) throw new ApiError("Message edit history is disabled in this organization");
  const tx = readTx(deps.store);
  const { message } = await accessMessage(tx, user, messageId);
  // Direct messages have no topic; the display name stands in only for a channel's empty topic.
  const shown = (topic: string) => (message.type === MESSAGE_TYPE.CHANNEL ? displayTopic(topic, allowEmptyTopicName) : topic);
  let content = message.content;
  let rendered = message.rendered_content;
  let topic = shown(message.subject);
  const newestFirst: Record<string, unknown>[] = [];
  const diffBudget = new DiffBudget();
  for (const edit of [...(await getEditsForMessages(tx, [message.id]))].reverse()) {
    const snapshot: Record<string, unknown> = { content, rendered_content: rendered, timestamp: edit.timestamp, topic, user_id: edit.user_id };
    if (edit.prev_topic !== null) {
      topic = shown(edit.prev_topic);
      snapshot.prev_topic = topic;
    }
    if (edit.prev_content !== null) {
      const prevRendered = edit.prev_rendered_content ?? "";
      Object.assign(snapshot, {
        prev_content: edit.prev_content,
        prev_rendered_content: prevRendered,
        content_html_diff: highlightHtmlDifferences(prevRendered, rendered, diffBudget),
      });
      content = edit.prev_content;
      rendered = prevRendered;
    }
    if (edit.prev_channel_id !== null) Object.assign(snapshot, { prev_stream: edit.prev_channel_id, stream: edit.channel_id });
    newestFirst.push(snapshot);
  }
  newestFirst.push({ content, rendered_content: rendered, timestamp: message.date_sent, topic, user_id: message.sender_id });
  return { message_history: newestFirst.reverse() };
}
