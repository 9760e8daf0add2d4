/** SQL for submessages (Zulip's SubMessage): the widget data and actions attached to a message. */
import type { Tx } from "./db.js";

export interface NewSubmessage {
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export async function insertSubmessage(tx: Tx, row: NewSubmessage): Promise<number> {
  const inserted = await tx.db.insertInto("submessages").values(row).returning("id").executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** The content of a message's first "widget" submessage, which says what kind of widget it is. */
export async function getWidgetSubmessageContent(tx: Tx, messageId: number): Promise<string | undefined> {
  const row = await tx.db
    .selectFrom("submessages")
    .select("content")
    .where("message_id", "=", messageId)
    .where("msg_type", "=", "widget")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row?.content;
}

export async function hasSubmessageFrom(tx: Tx, messageId: number, senderId: number): Promise<boolean> {
  const row = await tx.db
    .selectFrom("submessages")
    .select("id")
    .where("message_id", "=", messageId)
    .where("sender_id", "=", senderId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countSubmessages(tx: Tx, messageId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("submessages")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("message_id", "=", messageId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
