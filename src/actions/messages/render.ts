/**
 * The one seam through which messages (and other Markdown fields) are rendered: gathers the realm
 * rows the source refers to, then calls the pure renderer in src/markdown.
 */
import { loadUserAccess } from "../../access/users.js";
import { buildMarkdownContext, collectReferences, renderMarkdown, topicLinkKey, type References, type RenderResult } from "../../markdown/index.js";
import { realmUrl } from "../../lib/realm-url.js";
import type { Config } from "../../config.js";
import type { Tx } from "../../store/db.js";
import { Membership } from "../../policy/group-settings.js";
import { canSeeChannelMetadata } from "../../policy/channels.js";
import { isNotificationBot } from "../../policy/system-bots.js";
import {
  getChannelsByNamesForUser,
  getLatestReadableTopicMessageIds,
  getLinkifiers,
  getNamedGroupsByNames,
  getRealmEmojiByNames,
  getUsersForMentions,
} from "../../store/render-refs.js";
import type { ChannelRow, RealmRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { getUploadPreviews } from "../uploads/thumbnails.js";

export interface RenderInput {
  tx: Tx;
  realm: RealmRow;
  /** The server's external host (realm URLs) and image proxy (previews). */
  config: Pick<Config, "externalHost" | "camo">;
  /** Whose view decides which private channels may be linked. */
  senderId: number;
  content: string;
  alertWords?: string[];
  translateEmoticons?: boolean;
}

export function realmEmojiUrl(realmId: number, fileName: string): string {
  return `/user_avatars/${realmId}/emoji/images/${fileName}`;
}

type LinkableChannel = Pick<ChannelRow, "id" | "name" | "recipient_id" | "history_public_to_subscribers">;

/**
 * Channels a `#**name**` link may resolve: those whose metadata the sender may see, as Zulip's
 * mention backend does; a guest naming a public channel they are not in gets no link, so a
 * render reveals no channel id the sender could not look up (issue 16, F15). Notification Bot's
 * notices link every channel they name, as Zulip's cross-realm bot's do.
 */
async function linkableChannels(tx: Tx, realmId: number, senderId: number, names: readonly string[]): Promise<LinkableChannel[]> {
  const candidates = await getChannelsByNamesForUser(tx, realmId, senderId, names);
  if (candidates.length === 0) return [];
  const sender = await getUserById(tx, realmId, senderId);
  if (!sender) return [];
  if (isNotificationBot(sender)) return candidates;
  const membership = await Membership.load(tx, sender);
  return candidates.filter((c) => canSeeChannelMetadata({ membership, subscribed: c.subscribed }, c));
}

/**
 * For each #**channel>topic** link, the topic's latest message the author can read, which the link
 * names with `/with/` (Zulip's get_topic_info_map; latest since feature level 400).
 */
async function linkedTopicMessageIds(tx: Tx, userId: number, refs: References, channels: readonly LinkableChannel[]): Promise<Map<string, number>> {
  const byName = new Map(channels.map((c) => [c.name.toLowerCase(), c]));
  const links = refs.topicLinks.flatMap(({ channelName, topic }) => {
    const channel = byName.get(channelName.toLowerCase());
    return channel?.recipient_id ? [{ channelName, topic, recipientId: channel.recipient_id, sharedHistory: channel.history_public_to_subscribers }] : [];
  });
  if (links.length === 0) return new Map();
  const latest = await getLatestReadableTopicMessageIds(tx, userId, links);
  const out = new Map<string, number>();
  for (const link of links) {
    const id = latest.get(`${link.recipientId}\u0000${link.topic.toLowerCase()}`);
    if (id !== undefined) out.set(topicLinkKey(link.channelName, link.topic), id);
  }
  return out;
}

/**
 * Users a mention may resolve: those the sender may access (can_access_all_users_group; Zulip's
 * MentionBackend leaves get_inaccessible_user_ids out), so a guest's `@**Name**` of someone they
 * may not see stays plain text and notifies nobody, as in Zulip.
 */
async function mentionableUsers(tx: Tx, realmId: number, senderId: number, names: readonly string[], ids: readonly number[]) {
  const candidates = await getUsersForMentions(tx, realmId, names, ids);
  const sender = candidates.length > 0 ? await getUserById(tx, realmId, senderId) : undefined;
  if (!sender) return candidates;
  const access = await loadUserAccess(tx, sender);
  return candidates.filter((u) => access.canAccess(u));
}

export async function renderContent(input: RenderInput): Promise<RenderResult> {
  const { tx, realm } = input;
  const refs = collectReferences(input.content);
  const [users, groups, channels, emoji, linkifiers, uploadPreviews] = await Promise.all([
    mentionableUsers(tx, realm.id, input.senderId, refs.userNames, refs.userIds),
    getNamedGroupsByNames(tx, realm.id, refs.groupNames),
    linkableChannels(tx, realm.id, input.senderId, refs.channelNames),
    getRealmEmojiByNames(tx, realm.id, refs.realmEmojiNames),
    getLinkifiers(tx, realm.id),
    getUploadPreviews(tx, realm.id, input.content),
  ]);
  const ctx = buildMarkdownContext({
    realmUrl: realmUrl(input.config.externalHost, realm.string_id),
    users,
    groups,
    channels,
    topicMessageIds: await linkedTopicMessageIds(tx, input.senderId, refs, channels),
    realmEmoji: emoji.map((e) => ({
      id: String(e.id),
      name: e.name,
      source_url: realmEmojiUrl(realm.id, e.file_name),
      deactivated: e.deactivated,
    })),
    linkifiers: linkifiers.map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template })),
    translateEmoticons: input.translateEmoticons,
    uploadPreviews,
    camo: input.config.camo,
  });
  return renderMarkdown(input.content, ctx, { alertWords: input.alertWords });
}
