/**
 * Fetch + authorize uploaded files (issue 7, item 2). A file is readable by its uploader and by
 * anyone who can read a message linking it, under the same rules as reading that message
 * (access/messages.ts). A file the viewer may not read and one that does not exist give the same
 * 404, so a URL's existence never leaks.
 */
import { ApiError } from "../errors.js";
import { Membership } from "../policy/group-settings.js";
import { getAttachmentById, getAttachmentByPathId, getLinkedMessages, type AttachmentRow } from "../store/attachments.js";
import { getChannelsByRecipientIds } from "../store/channels.js";
import type { Tx } from "../store/db.js";
import { getUserMessageFlags } from "../store/messages.js";
import { MESSAGE_TYPE, type UserRow } from "../store/types.js";
import { canReadWithoutRow } from "./messages.js";

export const fileNotFound = () => new ApiError("File not found", "BAD_REQUEST", 404);

export const invalidAttachment = () => new ApiError("Invalid attachment");

export async function canReadAttachment(tx: Tx, user: UserRow, attachment: AttachmentRow): Promise<boolean> {
  if (attachment.realm_id !== user.realm_id) return false;
  if (attachment.owner_id === user.id) return true;
  const linked = await getLinkedMessages(tx, [attachment.id]);
  if (linked.length === 0) return false;
  const ownRows = await getUserMessageFlags(tx, user.id, linked.map((m) => m.id));
  if (ownRows.size > 0) return true;
  const channelRecipients = linked.filter((m) => m.type === MESSAGE_TYPE.CHANNEL).map((m) => m.recipient_id);
  const channels = await getChannelsByRecipientIds(tx, channelRecipients);
  if (channels.length === 0) return false;
  const membership = await Membership.load(tx, user);
  for (const channel of channels) {
    if (await canReadWithoutRow(tx, user, channel, membership)) return true;
  }
  return false;
}

/** The attachment at `pathId` if the user may read it; otherwise the not-found error. */
export async function accessAttachmentByPath(tx: Tx, user: UserRow, pathId: string): Promise<AttachmentRow> {
  const attachment = await getAttachmentByPathId(tx, user.realm_id, pathId);
  if (!attachment || !(await canReadAttachment(tx, user, attachment))) throw fileNotFound();
  return attachment;
}

/** One of the user's own attachments, by id (Zulip's access_attachment_by_id with needs_owner). */
export async function accessOwnAttachment(tx: Tx, user: UserRow, id: number): Promise<AttachmentRow> {
  const attachment = await getAttachmentById(tx, user.realm_id, id);
  if (!attachment || attachment.owner_id !== user.id) throw invalidAttachment();
  return attachment;
}
