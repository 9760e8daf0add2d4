/**
 * Muted users (Zulip's MutedUser, FL 48; bots too since FL 188). A message from a sender the
 * recipient muted reaches them already read and raises no notification of any kind: Zulip's
 * do_send_messages puts such recipients in `muted_sender_user_ids`, which both the read flag and
 * UserMessageNotificationsData consult. Notification code asks `hasMutedSender` the same question
 * with the muter ids the store found for the sender (store/muted-users.ts getMutersOf).
 */

/** Whether `recipientId` has muted `senderId`, given the ids of the users who muted the sender. */
export function hasMutedSender(recipientId: number, senderId: number, mutedSenderBy: ReadonlySet<number>): boolean {
  // Nobody can mute themselves ("Cannot mute self"), so one's own messages are never affected.
  return recipientId !== senderId && mutedSenderBy.has(recipientId);
}
