/**
 * Deleting a message (Zulip's delete-message, DELETE /messages/{id}). Anyone in
 * can_delete_any_message_group (organization or channel) may delete any message; otherwise a user
 * may delete their own messages and their bots' messages when in can_delete_own_message_group
 * (organization or channel) and within message_content_delete_limit_seconds. The message goes with
 * its reactions, edit history, widgets, flags and upload links; everyone who could see it (and the
 * deleter) gets delete_message in its bulk form.
 */
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidMessage } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { Membership } from "../../policy/group-settings.js";
import { canDeleteAnyMessage, canDeleteOwnMessage, pastLimit } from "../../policy/message-edits.js";
import { transaction, type Tx } from "../../store/db.js";
import { deleteMessageRows, getMessageForUpdate } from "../../store/edits.js";
import type { ChannelRow, MessageRow, RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { doRefreshFirstMessageId } from "./first-message.js";
import { messageEventRecipientIds } from "./message-audience.js";

const notAllowed = () => new ApiError("You don't have permission to delete this message");

function checkCanDelete(realm: RealmRow, m: Membership, message: MessageRow, channel: ChannelRow | null, sender: UserRow | undefined, now: number): void {
  if (canDeleteAnyMessage(m, realm, channel)) return;
  const own = message.sender_id === m.user.id || sender?.bot_owner_id === m.user.id;
  if (!own || !canDeleteOwnMessage(m, realm, channel)) throw notAllowed();
  if (pastLimit(message.date_sent, now, realm.message_content_delete_limit_seconds)) {
    throw new ApiError("The time limit for deleting this message has passed");
  }
}

export async function checkDeleteMessage(deps: AppDeps, realm: RealmRow, user: UserRow, messageId: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    await getMessageForUpdate(tx, realm.id, messageId);
    const { message, channel } = await accessMessage(tx, user, messageId);
    if (channel?.deactivated) throw invalidMessage();
    const membership = await Membership.load(tx, user);
    checkCanDelete(realm, membership, message, channel, await getUserById(tx, realm.id, message.sender_id), deps.clock.now());
    await doDeleteMessages(deps, tx, user, [message], channel);
  });
}

/**
 * Deletes messages of one conversation (Zulip's do_delete_messages): one delete_message event in
 * its bulk form to everyone who could see them and the deleter, and the channel's
 * first_message_id refreshed (FL 256).
 */
export async function doDeleteMessages(deps: AppDeps, tx: Tx, actor: UserRow, messages: readonly MessageRow[], channel: ChannelRow | null): Promise<void> {
  if (messages.length === 0) return;
  const audience = new Set(await messageEventRecipientIds(tx, messages, channel));
  audience.add(actor.id);
  await deleteMessageRows(tx, messages);
  const messageIds = messages.map((m) => m.id).sort((a, b) => a - b);
  const event = channel
    ? { type: "delete_message", message_ids: messageIds, message_type: "stream", stream_id: channel.id, topic: messages[0].subject }
    : { type: "delete_message", message_ids: messageIds, message_type: "private" };
  publishOnCommit(tx, deps.events, event, [...audience].sort((a, b) => a - b));
  if (channel) await doRefreshFirstMessageId(deps, tx, channel);
}
