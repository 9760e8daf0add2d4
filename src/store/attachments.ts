/** SQL for uploaded files (Zulip's Attachment) and the messages that link them. */
import { sql, type Insertable, type Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type AttachmentRow = Selectable<DB["attachments"]>;
export type NewAttachment = Insertable<DB["attachments"]>;

/** A message that links an attachment, with what deciding who may read it needs. */
export interface LinkedMessage {
  attachment_id: number;
  id: number;
  date_sent: number;
  type: number;
  recipient_id: number;
}

export async function insertAttachment(tx: Tx, row: NewAttachment): Promise<AttachmentRow> {
  return tx.db.insertInto("attachments").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getAttachmentById(tx: Tx, realmId: number, id: number): Promise<AttachmentRow | undefined> {
  return tx.db.selectFrom("attachments").selectAll().where("id", "=", id).where("realm_id", "=", realmId).executeTakeFirst();
}

export async function getAttachmentByPathId(tx: Tx, realmId: number, pathId: string): Promise<AttachmentRow | undefined> {
  return tx.db.selectFrom("attachments").selectAll().where("path_id", "=", pathId).where("realm_id", "=", realmId).executeTakeFirst();
}

export async function getAttachmentsByPathIds(tx: Tx, realmId: number, pathIds: readonly string[]): Promise<AttachmentRow[]> {
  if (pathIds.length === 0) return [];
  return tx.db.selectFrom("attachments").selectAll().where("realm_id", "=", realmId).where("path_id", "in", pathIds).execute();
}

export async function listAttachmentsByOwner(tx: Tx, ownerId: number): Promise<AttachmentRow[]> {
  return tx.db.selectFrom("attachments").selectAll().where("owner_id", "=", ownerId).orderBy("id").execute();
}

/** The messages linking each attachment, oldest first. */
export async function getLinkedMessages(tx: Tx, attachmentIds: readonly number[]): Promise<LinkedMessage[]> {
  if (attachmentIds.length === 0) return [];
  return tx.db
    .selectFrom("attachment_messages")
    .innerJoin("messages", "messages.id", "attachment_messages.message_id")
    .select(["attachment_messages.attachment_id", "messages.id", "messages.date_sent", "messages.type", "messages.recipient_id"])
    .where("attachment_messages.attachment_id", "in", attachmentIds)
    .orderBy("messages.id")
    .execute();
}

/** Links attachments to a message; linking twice is harmless. */
export async function linkAttachments(tx: Tx, attachmentIds: readonly number[], messageId: number): Promise<void> {
  if (attachmentIds.length === 0) return;
  await tx.db
    .insertInto("attachment_messages")
    .values(attachmentIds.map((attachment_id) => ({ attachment_id, message_id: messageId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function deleteAttachments(tx: Tx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.db.deleteFrom("attachment_messages").where("attachment_id", "in", ids).execute();
  await tx.db.deleteFrom("scheduled_message_attachments").where("attachment_id", "in", ids).execute();
  await tx.db.deleteFrom("attachments").where("id", "in", ids).execute();
}

/** Advisory-lock class id for a realm's uploads (the realm id is the second key). */
const UPLOAD_QUOTA_LOCK = 7007;

/**
 * Makes concurrent uploads into one realm check its quota one after the other, until the
 * transaction ends (PostgreSQL; SQLite runs one transaction at a time anyway).
 */
export async function lockRealmUploads(tx: Tx, realmId: number): Promise<void> {
  if (tx.dialect === "postgres") await sql`SELECT pg_advisory_xact_lock(${UPLOAD_QUOTA_LOCK}, ${realmId})`.execute(tx.db);
}

/** Zulip's upload_space_used: bytes of every file uploaded in the realm. */
export async function getRealmUploadSpaceUsed(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("attachments")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("size"), eb.lit(0)).as("total"))
    .where("realm_id", "=", realmId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Attachments no message links, uploaded before `cutoff` (UTC seconds), across all realms. An upload
 * a pending scheduled message links counts as linked (Zulip claims attachments for scheduled
 * messages too), or it could be gone by the time the message is sent.
 */
export async function listUnclaimedAttachments(tx: Tx, cutoff: number, limit: number): Promise<AttachmentRow[]> {
  return tx.db
    .selectFrom("attachments")
    .selectAll()
    .where("create_time", "<", cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("attachment_messages").select("attachment_id").whereRef("attachment_messages.attachment_id", "=", "attachments.id"))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("scheduled_message_attachments")
            .select("attachment_id")
            .whereRef("scheduled_message_attachments.attachment_id", "=", "attachments.id"),
        ),
      ),
    )
    .orderBy("id")
    .limit(limit)
    .execute();
}
