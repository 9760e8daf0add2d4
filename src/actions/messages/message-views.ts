/**
 * Message objects. For a batch read from the store, everything they need (senders, channel names,
 * DM participants, reactions, submessages, edits, topic links) is loaded with one query per kind,
 * and only the kinds the batch has (channel rows for channel messages, group members for direct
 * ones). A message just sent needs none of them: its sender, channel or participants, the widget
 * it may start and the realm's linkifiers are at hand, and it has no reactions or edits yet.
 */
import { groupBy } from "../../lib/group-by.js";
import { renderTopicLinks } from "../../markdown/index.js";
import { loadUserAccess } from "../../access/users.js";
import {
  presentMessage,
  withInaccessibleSender,
  type DisplayRecipientUser,
  type EditRow,
  type MessageExtras,
  type PresentMessageOptions,
} from "../../present/present-message.js";
import { getChannelsByRecipientIds, getRecipientMembers } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getEditsForMessages, getReactionsForMessages, getSubmessagesForMessages } from "../../store/messages.js";
import { getLinkifiers } from "../../store/render-refs.js";
import { MESSAGE_TYPE, type ChannelRow, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";

export type ViewOptions = Omit<PresentMessageOptions, "viewerSeesSenderEmail"> & {
  /**
   * Who is reading, when senders they may not access (can_access_all_users_group) must show as
   * "Unknown user"; `emailDomain` names the placeholder addresses.
   */
  viewer?: { user: UserRow; emailDomain: string };
};

type Linkifier = { id: number; pattern: string; url_template: string };

/** A topic's topic_links: linkifier matches and raw URLs (message objects, update_message events). */
export function topicLinks(topic: string, linkifiers: readonly Linkifier[]) {
  if (topic === "") return [];
  return renderTopicLinks(topic, linkifiers.map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template })));
}

/** What one message object is built from besides its row. */
interface MessageParts {
  sender: UserRow;
  channel: Pick<ChannelRow, "id" | "name"> | null;
  /** A direct message's participants (the sender among them); empty for a channel message. */
  participants: UserRow[];
  reactions: MessageExtras["reactions"];
  submessages: MessageExtras["submessages"];
  edits: EditRow[];
  flags: number | null;
}

function assemble(realm: RealmRow, m: MessageRow, parts: MessageParts, linkifiers: readonly Linkifier[], opts: ViewOptions): Record<string, unknown> {
  const displayRecipient: string | DisplayRecipientUser[] =
    m.type === MESSAGE_TYPE.CHANNEL
      ? (parts.channel?.name ?? "")
      : [...parts.participants]
          .sort((a, b) => a.id - b.id)
          .map((u) => ({ id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: u.is_mirror_dummy }));
  return presentMessage(
    m,
    {
      sender: parts.sender,
      realmStringId: realm.string_id,
      displayRecipient,
      channelId: parts.channel?.id ?? null,
      reactions: parts.reactions,
      submessages: parts.submessages,
      edits: realm.allow_edit_history ? parts.edits : null,
      topicLinks: topicLinks(m.subject, linkifiers),
      flags: parts.flags,
    },
    { ...opts, viewerSeesSenderEmail: true },
  );
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
  const recipientsOf = (type: number) => [...new Set(messages.filter((m) => m.type === type).map((m) => m.recipient_id))];
  const [groupMembers, channels, reactions, submessages, edits, linkifiers, access] = await Promise.all([
    getRecipientMembers(tx, recipientsOf(MESSAGE_TYPE.DIRECT)),
    getChannelsByRecipientIds(tx, recipientsOf(MESSAGE_TYPE.CHANNEL)),
    getReactionsForMessages(tx, ids),
    getSubmessagesForMessages(tx, ids),
    realm.allow_edit_history ? getEditsForMessages(tx, ids) : Promise.resolve([]),
    getLinkifiers(tx, realm.id),
    opts.viewer ? loadUserAccess(tx, opts.viewer.user) : null,
  ]);
  // A direct message's participants are its group's members (1:1 and self conversations too).
  const participantIds = (m: MessageRow): number[] => (m.type === MESSAGE_TYPE.CHANNEL ? [] : (groupMembers.get(m.recipient_id) ?? []));
  const users = await getUsersByIds(tx, realm.id, [...messages.map((m) => m.sender_id), ...messages.flatMap(participantIds)]);
  const userById = new Map<number, UserRow>(users.map((u) => [u.id, u]));
  const channelByRecipient = new Map(channels.map((c) => [c.recipient_id as number, c]));
  const reactionsBy = groupBy(reactions, (r) => Number(r.message_id));
  const submessagesBy = groupBy(submessages, (s) => Number(s.message_id));
  const editsBy = groupBy(edits, (e) => Number(e.message_id));

  const viewer = opts.viewer;
  return messages.map((m) => {
    const sender = userById.get(m.sender_id) as UserRow;
    const presented = assemble(
      realm,
      m,
      {
        sender,
        channel: channelByRecipient.get(m.recipient_id) ?? null,
        participants: participantIds(m).map((id) => userById.get(id) as UserRow),
        reactions: (reactionsBy.get(m.id) ?? []).map((r) => ({
          emoji_name: r.emoji_name,
          emoji_code: r.emoji_code,
          reaction_type: r.reaction_type,
          user_id: r.user_id,
        })),
        submessages: (submessagesBy.get(m.id) ?? []).map((s) => ({ ...s, message_id: Number(s.message_id) })),
        edits: editsBy.get(m.id) ?? [],
        flags: flags.get(m.id) ?? null,
      },
      linkifiers,
      opts,
    );
    return viewer && access && !access.canAccess(sender) ? withInaccessibleSender(presented, viewer.emailDomain) : presented;
  });
}

/**
 * The message object of a message being sent, for its `message` events: the same object
 * presentMessages would build from the store once it is written, from what the sender already
 * loaded. `participants` are a direct message's (the sender among them).
 */
export function presentNewMessage(
  realm: RealmRow,
  m: MessageRow,
  known: {
    sender: UserRow;
    channel: ChannelRow | null;
    participants: UserRow[];
    /** The widget the message starts, if any (actions/messages/submessages.ts). */
    submessages: MessageExtras["submessages"];
    linkifiers: readonly Linkifier[];
  },
  opts: ViewOptions,
): Record<string, unknown> {
  const { sender, channel, participants, submessages } = known;
  const parts: MessageParts = { sender, channel, participants, reactions: [], submessages, edits: [], flags: null };
  return assemble(realm, m, parts, known.linkifiers, opts);
}
