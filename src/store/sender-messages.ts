/** SQL for the messages one user sent, by kind of conversation (FL 459's deactivation actions). */
import type { Tx } from "./db.js";
import type { MessageRow } from "./types.js";

/** Which of a sender's messages: those in public channels, in private channels, and direct messages. */
export interface SenderMessageScope {
  publicChannels: boolean;
  privateChannels: boolean;
  direct: boolean;
}

/**
 * The sender's oldest `limit` messages in the scope (through the index on sender_id, id). A channel
 * is public when it is not invite-only, as everywhere in Parley; archived channels count too.
 * Messages.type is 2 for channel messages (MESSAGE_TYPE in store/types.ts).
 */
export async function getSenderMessagesBatch(tx: Tx, realmId: number, senderId: number, scope: SenderMessageScope, limit: number): Promise<MessageRow[]> {
  if (!scope.publicChannels && !scope.privateChannels && !scope.direct) return [];
  return tx.db
    .selectFrom("messages")
    .leftJoin("channels", "channels.recipient_id", "messages.recipient_id")
    .selectAll("messages")
    .where("messages.sender_id", "=", senderId)
    .where("messages.realm_id", "=", realmId)
    .where((eb) => {
      const kinds = [];
      if (scope.direct) kinds.push(eb("messages.type", "!=", 2));
      if (scope.publicChannels) kinds.push(eb.and([eb("messages.type", "=", 2), eb("channels.invite_only", "=", false)]));
      if (scope.privateChannels) kinds.push(eb.and([eb("messages.type", "=", 2), eb("channels.invite_only", "=", true)]));
      return eb.or(kinds);
    })
    .orderBy("messages.id")
    .limit(limit)
    .execute();
}
