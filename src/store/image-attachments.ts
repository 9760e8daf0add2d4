/** SQL for uploaded images and their thumbnails (Zulip's ImageAttachment; migration 0005). */
import type { Insertable, Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type ImageAttachmentRow = Selectable<DB["image_attachments"]>;

export async function insertImageAttachment(tx: Tx, row: Insertable<DB["image_attachments"]>): Promise<void> {
  await tx.db.insertInto("image_attachments").values(row).execute();
}

export async function getImageAttachment(tx: Tx, attachmentId: number): Promise<ImageAttachmentRow | undefined> {
  return tx.db.selectFrom("image_attachments").selectAll().where("attachment_id", "=", attachmentId).executeTakeFirst();
}

export async function listImageAttachments(tx: Tx, attachmentIds: readonly number[]): Promise<ImageAttachmentRow[]> {
  if (attachmentIds.length === 0) return [];
  return tx.db.selectFrom("image_attachments").selectAll().where("attachment_id", "in", attachmentIds).execute();
}

/** The images among this realm's uploads with these path ids, each with its path id. */
export async function getImagesByPathIds(tx: Tx, realmId: number, pathIds: readonly string[]): Promise<Array<ImageAttachmentRow & { path_id: string }>> {
  if (pathIds.length === 0) return [];
  return tx.db
    .selectFrom("image_attachments")
    .innerJoin("attachments", "attachments.id", "image_attachments.attachment_id")
    .selectAll("image_attachments")
    .select("attachments.path_id")
    .where("attachments.realm_id", "=", realmId)
    .where("attachments.path_id", "in", pathIds)
    .execute();
}
