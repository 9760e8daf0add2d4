/** SQL for a message's read receipts (Zulip's read_receipts view). */
import { sql } from "kysely";
import { FLAG_BITS } from "../lib/flags.js";
import type { Tx } from "./db.js";

export interface Reader {
  id: number;
  settings: string;
}

/**
 * The active users other than the sender who have the message marked read, leaving out anyone
 * who muted the viewer or whom the viewer muted; with their settings, so the caller can honour
 * send_read_receipts. Ordered by id.
 */
export async function getMessageReaders(tx: Tx, messageId: number, senderId: number, viewerId: number): Promise<Reader[]> {
  return tx.db
    .selectFrom("user_messages")
    .innerJoin("users", "users.id", "user_messages.user_id")
    .select(["users.id", "users.settings"])
    .where("user_messages.message_id", "=", messageId)
    .where(sql<number>`user_messages.flags & ${FLAG_BITS.read}`, "<>", 0)
    .where("users.is_active", "=", true)
    .where("users.id", "<>", senderId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("muted_users")
            .select("muted_users.user_id")
            .where((eb) =>
              eb.or([
                eb.and([eb("muted_users.user_id", "=", eb.ref("users.id")), eb("muted_users.muted_user_id", "=", viewerId)]),
                eb.and([eb("muted_users.user_id", "=", viewerId), eb("muted_users.muted_user_id", "=", eb.ref("users.id"))]),
              ]),
            ),
        ),
      ),
    )
    .orderBy("users.id")
    .execute();
}
