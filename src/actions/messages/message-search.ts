/**
 * Search results: message objects for a `search` narrow carry `match_content` and `match_subject`
 * (the rendered content and the HTML-escaped topic with matches highlighted), and
 * GET /messages/matches_narrow reports which of some messages match a narrow, with those fields.
 */
import type { NarrowTerm } from "../../lib/narrow.js";
import { escapeHtml, highlightHtml, highlightKeys, type SearchText } from "../../lib/search-highlight.js";
import { displayTopic } from "../../lib/topics.js";
import type { Tx } from "../../store/db.js";
import { getMessagesByIds } from "../../store/messages.js";
import { narrowIdsAmong } from "../../store/narrow.js";
import { MESSAGE_TYPE, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { presentMessages, type ViewOptions } from "./message-views.js";
import { resolveNarrow } from "./narrow-terms.js";

function searchFields(m: MessageRow, keys: ReadonlySet<string>, allowEmptyTopicName: boolean) {
  const topic = m.type === MESSAGE_TYPE.CHANNEL ? displayTopic(m.subject, allowEmptyTopicName) : "";
  return { match_content: highlightHtml(m.rendered_content, keys), match_subject: highlightHtml(escapeHtml(topic), keys) };
}

/** Presents messages, adding the highlight fields when the narrow searched. */
export async function presentSearchResults(
  tx: Tx,
  realm: RealmRow,
  messages: readonly MessageRow[],
  flags: ReadonlyMap<number, number>,
  search: SearchText | null,
  view: ViewOptions,
): Promise<Record<string, unknown>[]> {
  const presented = await presentMessages(tx, realm, messages, flags, view);
  if (!search) return presented;
  const keys = highlightKeys(search);
  return presented.map((p, i) => ({ ...p, ...searchFields(messages[i], keys, view.allowEmptyTopicName) }));
}

/**
 * GET /messages/matches_narrow: which of `messageIds` the user received and that match the narrow,
 * keyed by id, each with its highlight fields (plain text when the narrow has no search).
 */
export async function messagesMatchingNarrow(
  tx: Tx,
  user: UserRow,
  messageIds: number[],
  narrow: NarrowTerm[],
): Promise<Record<string, { match_content: string; match_subject: string }>> {
  const r = await resolveNarrow(tx, user, narrow);
  const ids = await narrowIdsAmong(tx, r.rowsQuery, messageIds);
  const keys = r.search ? highlightKeys(r.search) : new Set<string>();
  const out: Record<string, { match_content: string; match_subject: string }> = {};
  for (const m of await getMessagesByIds(tx, ids)) out[String(m.id)] = searchFields(m, keys, true);
  return out;
}
