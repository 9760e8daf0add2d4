/**
 * Attachments: the uploader's list (`GET /attachments`), deletion (`DELETE /attachments/{id}`), the
 * link a sent message makes to an upload, and removal of uploads no message ever linked
 * (issue 7, item 5). Rows change inside a transaction; files (originals and their thumbnails) are
 * removed from storage only after it commits, so a row never points at a missing file.
 */
import { accessOwnAttachment, canReadAttachment } from "../../access/attachments.js";
import type { AppDeps } from "../../deps.js";
import { publishOnCommit, type EventBus } from "../../events/bus.js";
import {
  deleteAttachments,
  getAttachmentsByPathIds,
  getLinkedMessages,
  getRealmUploadSpaceUsed,
  linkAttachments,
  listAttachmentsByOwner,
  listUnclaimedAttachments,
  type AttachmentRow,
} from "../../store/attachments.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { uploadStorage, type UploadStorage } from "../../uploads/storage.js";
import { storedFilesOf } from "./thumbnails.js";

/**
 * Zulip's attachment object as of feature level 472: `create_time` in seconds (FL 443; it was
 * milliseconds) and the linking messages as `message_ids`, oldest first (FL 472; it was
 * `messages: [{id, date_sent}]`).
 */
export interface AttachmentView {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  message_ids: number[];
}

export function presentAttachment(row: AttachmentRow, messageIds: readonly number[]): AttachmentView {
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: Number(row.size),
    create_time: Number(row.create_time),
    message_ids: messageIds.map(Number),
  };
}

/** Presents attachments with the messages linking each. */
async function presentWithMessages(tx: Tx, rows: readonly AttachmentRow[]): Promise<AttachmentView[]> {
  const linked = await getLinkedMessages(tx, rows.map((r) => r.id));
  return rows.map((row) => presentAttachment(row, linked.filter((m) => m.attachment_id === row.id).map((m) => m.id)));
}

export async function listAttachments(deps: AppDeps, user: UserRow): Promise<{ attachments: AttachmentView[]; upload_space_used: number }> {
  const tx = readTx(deps.store);
  const rows = await listAttachmentsByOwner(tx, user.id);
  return { attachments: await presentWithMessages(tx, rows), upload_space_used: await getRealmUploadSpaceUsed(tx, user.realm_id) };
}

async function deleteFiles(storage: UploadStorage, pathIds: readonly string[]): Promise<void> {
  for (const pathId of pathIds) await storage.delete(pathId);
}

export async function doDeleteAttachment(deps: AppDeps, user: UserRow, attachmentId: number): Promise<void> {
  const files = await transaction(deps.store, async (tx) => {
    const attachment = await accessOwnAttachment(tx, user, attachmentId);
    const files = await storedFilesOf(tx, [attachment]);
    await deleteAttachments(tx, [attachment.id]);
    const event = {
      type: "attachment",
      op: "remove",
      attachment: { id: attachment.id },
      upload_space_used: await getRealmUploadSpaceUsed(tx, user.realm_id),
    };
    publishOnCommit(tx, deps.events, event, [user.id]);
    return files;
  });
  await deleteFiles(uploadStorage(deps.config), files);
}

/** Of the uploads a message names, those its sender may link: their own, or ones they can read. */
export async function claimableAttachments(tx: Tx, realm: RealmRow, senderId: number, pathIds: readonly string[]): Promise<AttachmentRow[]> {
  const candidates = await getAttachmentsByPathIds(tx, realm.id, pathIds);
  if (candidates.length === 0) return [];
  const sender = await getUserById(tx, realm.id, senderId);
  if (!sender) return [];
  const claimable: AttachmentRow[] = [];
  for (const attachment of candidates) {
    if (attachment.owner_id === senderId || (await canReadAttachment(tx, sender, attachment))) claimable.push(attachment);
  }
  return claimable;
}

/**
 * Records that a just-inserted message links these uploads (the renderer's `attachmentPathIds`),
 * so readers of the message may read the files. Only uploads the sender may read themselves are
 * linked: their own, or ones shared with them by a message they can read (Zulip lets a reader
 * re-share a file; nobody can grant access to a file they cannot see). Each owner's clients get an
 * `attachment` update. Returns the ids linked.
 */
export async function claimAttachments(
  tx: Tx,
  events: EventBus,
  realm: RealmRow,
  senderId: number,
  messageId: number,
  pathIds: readonly string[],
): Promise<number[]> {
  const claimed = await claimableAttachments(tx, realm, senderId, pathIds);
  if (claimed.length === 0) return [];
  await linkAttachments(tx, claimed.map((a) => a.id), messageId);
  const views = await presentWithMessages(tx, claimed);
  const spaceUsed = claimed.length > 0 ? await getRealmUploadSpaceUsed(tx, realm.id) : 0;
  claimed.forEach((attachment, i) => {
    publishOnCommit(tx, events, { type: "attachment", op: "update", attachment: views[i], upload_space_used: spaceUsed }, [attachment.owner_id]);
  });
  return claimed.map((a) => a.id);
}

/**
 * Deletes up to `limit` uploads that no message links and that were uploaded before `cutoff`
 * (UTC seconds); their owners' clients get an `attachment` remove. Returns how many went.
 */
export async function doDeleteUnclaimedAttachments(deps: AppDeps, cutoff: number, limit: number): Promise<number> {
  // Usually there is nothing to delete: finding that out needs no write transaction, which on
  // SQLite would start the checkpoint worker of an otherwise idle server (store/checkpointer.ts).
  if ((await listUnclaimedAttachments(readTx(deps.store), cutoff, 1)).length === 0) return 0;
  const { count, files } = await transaction(deps.store, async (tx) => {
    const rows = await listUnclaimedAttachments(tx, cutoff, limit);
    const files = await storedFilesOf(tx, rows);
    await deleteAttachments(tx, rows.map((r) => r.id));
    const spaceByRealm = new Map<number, number>();
    for (const row of rows) {
      if (!spaceByRealm.has(row.realm_id)) spaceByRealm.set(row.realm_id, await getRealmUploadSpaceUsed(tx, row.realm_id));
      const event = { type: "attachment", op: "remove", attachment: { id: row.id }, upload_space_used: spaceByRealm.get(row.realm_id) };
      publishOnCommit(tx, deps.events, event, [row.owner_id]);
    }
    return { count: rows.length, files };
  });
  await deleteFiles(uploadStorage(deps.config), files);
  return count;
}
