/**
 * Editing a message's content: the new text is normalised and rendered as for sending (spec 4.15's
 * history keeps the old text and HTML), and every recipient's mention, wildcard and alert-word
 * flags are recomputed for the new rendering, as Zulip does.
 */
import type { AppDeps } from "../../deps.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { mergeSettings } from "../../lib/user-settings.js";
import type { RenderResult } from "../../markdown/index.js";
import type { Membership } from "../../policy/group-settings.js";
import type { Tx } from "../../store/db.js";
import { getLinkedMessages } from "../../store/attachments.js";
import { getAttachmentsLinkedTo, unlinkAttachments, updateMessageContent } from "../../store/edits.js";
import { getAlertWordsForUsers, reindexMessage } from "../../store/messages.js";
import { getSubscriberIds, isSubscribed } from "../../store/subscriptions.js";
import type { ChannelRow, MessageRow, RealmRow } from "../../store/types.js";
import { getUserMessageRows, setUserMessageFlags, type UserMessageRow } from "../../store/user-messages.js";
import { claimAttachments, presentAttachment, type AttachmentView } from "../uploads/attachments.js";
import { renderContent } from "../messages/render.js";
import { mentionedUserIds, normalizeContent, wildcardFlags, type Delivery } from "../messages/send-message.js";

/** Zulip keeps an emptied message as this text rather than deleting it. */
const EMPTIED_CONTENT = "(deleted)";

const RENDER_FLAGS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.has_alert_word;

export interface PreparedContent {
  content: string;
  rendered: RenderResult;
  /** The message's rows with their flags after the edit. */
  rows: UserMessageRow[];
  /** Those of `rows` whose flags change. */
  changed: UserMessageRow[];
  /** Those of `rows` mentioned now (by name, group or wildcard) and not before: they may be notified. */
  newlyMentioned: UserMessageRow[];
}

/**
 * Renders the new content and works out the new flags, refusing wildcard mentions the sender may
 * not use here. Writes nothing.
 */
export async function prepareContentEdit(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  message: MessageRow,
  channel: ChannelRow | null,
  sender: Membership,
  rawContent: string,
): Promise<PreparedContent> {
  const content = rawContent.trimEnd() === "" ? EMPTIED_CONTENT : normalizeContent(rawContent);
  const rows = await getUserMessageRows(tx, [message.id]);
  const alertWords = await getAlertWordsForUsers(tx, rows.map((r) => r.user_id).filter((id) => id !== message.sender_id));
  const rendered = await renderContent({
    tx,
    realm,
    config: deps.config,
    senderId: message.sender_id,
    content,
    alertWords: [...new Set([...alertWords.values()].flat())],
    translateEmoticons: Boolean(mergeSettings(sender.user.settings).translate_emoticons),
  });
  const recipientId = message.recipient_id;
  const delivery: Delivery = channel
    ? {
        recipientId,
        channel,
        topic: message.subject,
        userIds: [...new Set([...(await getSubscriberIds(tx, recipientId)), message.sender_id])],
        senderSubscribed: await isSubscribed(tx, message.sender_id, recipientId),
      }
    : { recipientId, channel: null, topic: "", userIds: rows.map((r) => r.user_id), senderSubscribed: true };
  const wildcard = await wildcardFlags(tx, delivery, rendered.wildcard, sender, realm);
  const wildcardUsers = new Set(wildcard.userIds);
  const mentioned = await mentionedUserIds(tx, rendered);
  const found = new Set(rendered.alertWordsFound.map((w) => w.toLowerCase()));
  const updated = rows.map((r) => {
    let flags = r.flags & ~RENDER_FLAGS;
    if (mentioned.has(r.user_id)) flags |= FLAG_BITS.mentioned;
    if (wildcardUsers.has(r.user_id)) flags |= wildcard.bit;
    if ((alertWords.get(r.user_id) ?? []).some((w) => found.has(w.toLowerCase()))) flags |= FLAG_BITS.has_alert_word;
    return { ...r, flags };
  });
  const mentionBits = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
  return {
    content,
    rendered,
    rows: updated,
    changed: updated.filter((r, i) => r.flags !== rows[i].flags),
    newlyMentioned: updated.filter((r, i) => (r.flags & mentionBits) !== 0 && (rows[i].flags & mentionBits) === 0),
  };
}

/**
 * Re-points the message's upload links at the new content (Zulip's attachment reference change):
 * links dropped from the text are removed, new ones claimed as for sending. Returns whether the
 * message still links an upload, and the sender's uploads no message links any more.
 */
async function syncAttachments(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  message: MessageRow,
  pathIds: readonly string[],
): Promise<{ hasAttachment: boolean; detached: AttachmentView[] }> {
  const before = await getAttachmentsLinkedTo(tx, message.id);
  const wanted = new Set(pathIds);
  const dropped = before.filter((a) => !wanted.has(a.path_id));
  await unlinkAttachments(tx, dropped.map((a) => a.id), message.id);
  const known = new Set(before.map((a) => a.path_id));
  await claimAttachments(tx, deps.events, realm, message.sender_id, message.id, pathIds.filter((p) => !known.has(p)));
  const stillLinked = new Set((await getLinkedMessages(tx, dropped.map((a) => a.id))).map((l) => l.attachment_id));
  return {
    hasAttachment: (await getAttachmentsLinkedTo(tx, message.id)).length > 0,
    detached: dropped.filter((a) => a.owner_id === message.sender_id && !stillLinked.has(a.id)).map((a) => presentAttachment(a, [])),
  };
}

export interface AppliedContent {
  /** update_message event fields. */
  event: Record<string, unknown>;
  /** Edit-history fields. */
  history: { prev_content: string; prev_rendered_content: string };
  /** The sender's uploads the edit left unlinked (the response's `detached_uploads`). */
  detached: AttachmentView[];
}

/** Writes a prepared content edit. */
export async function applyContentEdit(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  message: MessageRow,
  prepared: PreparedContent,
  now: number,
): Promise<AppliedContent> {
  const { content, rendered } = prepared;
  const attachments = await syncAttachments(deps, tx, realm, message, rendered.attachmentPathIds);
  await updateMessageContent(tx, message.id, {
    content,
    rendered_content: rendered.html,
    last_edit_time: now,
    has_attachment: attachments.hasAttachment,
    has_image: rendered.hasImage,
    has_link: rendered.hasLink,
    is_me_message: rendered.isMeMessage,
  });
  await reindexMessage(tx, message.id, message, { subject: message.subject, content });
  await setUserMessageFlags(tx, prepared.changed);
  return {
    event: {
      orig_content: message.content,
      orig_rendered_content: message.rendered_content,
      content,
      rendered_content: rendered.html,
      is_me_message: rendered.isMeMessage,
    },
    history: { prev_content: message.content, prev_rendered_content: message.rendered_content },
    detached: attachments.detached,
  };
}
