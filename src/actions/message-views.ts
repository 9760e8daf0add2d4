/**
 * Loads everything the message objects of a batch need (senders, channel names, DM participants,
 * reactions, submessages, edits, topic links) with one query per kind, and presents them.
 */
import { renderTopicLinks } from "../markdown/index.js";
import { MESSAGE_TYPE, presentMessage, type DisplayRecipientUser, type PresentMessageOptions } from "../lib/present-message.js";
import { RECIPIENT, getChannelsByRecipientIds, getRecipientMembers, getRecipientsByIds } from "../store/channels.js";
import type { Tx } from "../store/db.js";
import { getEditsForMessages, getReactionsForMessages, getSubmessagesForMessages } from "../store/messages.js";
import { getLinkifiers } from "../store/render-refs.js";
import type { MessageRow, RealmRow, UserRow } from "../store/types.js";
import { getUsersByIds } from "../store/users.js";

export type ViewOptions = Omit<PresentMessageOptions, "viewerSeesSenderEmail">;

/** A topic's topic_links: linkifier matches and raw URLs (message objects, update_message events). */
export function topicLinks(topic: string, linkifiers: ReadonlyArray<{ id: number; pattern: string; url_template: string }>) {
  if (topic === "") return [];
  return renderTopicLinks(topic, linkifiers.map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template })));
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) out.set(key(row), [...(out.get(key(row)) ?? []), row]);
  return out;
}

/** Presents messages the viewer may read; `flags` maps message id → the viewer's flag bits. */
export async function presentMessages(
  tx: Tx,
  realm: RealmRow,
  messages: readonly MessageRow[],
  flags: ReadonlyMap<number, number>,
  opts: ViewOptions,
): Promise<Record<string, unknown>[]> {
  if (messages.length === 0) return [];
  const ids = messages.map((m) => m.id);
  const recipientIds = messages.map((m) => m.recipient_id);
  const [recipients, channels, reactions, submessages, edits, linkifiers] = await Promise.all([
    getRecipientsByIds(tx, recipientIds),
    getChannelsByRecipientIds(tx, recipientIds),
    getReactionsForMessages(tx, ids),
    getSubmessagesForMessages(tx, ids),
    realm.allow_edit_history ? getEditsForMessages(tx, ids) : Promise.resolve([]),
    getLinkifiers(tx, realm.id),
  ]);
  const groupMembers = await getRecipientMembers(
    tx,
    recipients.filter((r) => r.type === RECIPIENT.DIRECT_MESSAGE_GROUP).map((r) => r.id),
  );
  const recipientById = new Map(recipients.map((r) => [r.id, r]));
  const participantIds = (m: MessageRow): number[] => {
    const r = recipientById.get(m.recipient_id);
    if (!r || r.type === RECIPIENT.CHANNEL) return [];
    if (r.type === RECIPIENT.PERSONAL) return [...new Set([m.sender_id, r.type_id])];
    return groupMembers.get(r.id) ?? [];
  };
  const users = await getUsersByIds(tx, realm.id, [...messages.map((m) => m.sender_id), ...messages.flatMap(participantIds)]);
  const userById = new Map<number, UserRow>(users.map((u) => [u.id, u]));
  const channelByRecipient = new Map(channels.map((c) => [c.recipient_id as number, c]));
  const reactionsBy = groupBy(reactions, (r) => Number(r.message_id));
  const submessagesBy = groupBy(submessages, (s) => Number(s.message_id));
  const editsBy = groupBy(edits, (e) => Number(e.message_id));

  return messages.map((m) => {
    const channel = channelByRecipient.get(m.recipient_id) ?? null;
    const displayRecipient: string | DisplayRecipientUser[] =
      m.type === MESSAGE_TYPE.CHANNEL
        ? (channel?.name ?? "")
        : participantIds(m)
            .sort((a, b) => a - b)
            .map((id) => userById.get(id) as UserRow)
            .map((u) => ({ id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: u.is_mirror_dummy }));
    return presentMessage(
      m,
      {
        sender: userById.get(m.sender_id) as UserRow,
        realmStringId: realm.string_id,
        displayRecipient,
        channelId: channel?.id ?? null,
        reactions: (reactionsBy.get(m.id) ?? []).map((r) => ({
          emoji_name: r.emoji_name,
          emoji_code: r.emoji_code,
          reaction_type: r.reaction_type,
          user_id: r.user_id,
        })),
        submessages: (submessagesBy.get(m.id) ?? []).map((s) => ({ ...s, message_id: Number(s.message_id) })),
        edits: realm.allow_edit_history ? (editsBy.get(m.id) ?? []) : null,
        topicLinks: topicLinks(m.subject, linkifiers),
        flags: flags.get(m.id) ?? null,
      },
      { ...opts, viewerSeesSenderEmail: true },
    );
  });
}
