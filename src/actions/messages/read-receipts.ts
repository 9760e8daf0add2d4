/**
 * GET /messages/{message_id}/read_receipts (Zulip's get-read-receipts, FL 137; muting rules FL 143):
 * who has read a message. In Zulip's order of checks: the message must be one the caller can read
 * ("Invalid message(s)" otherwise, whether it exists or not), then the organization must have read
 * receipts on. The answer leaves out the sender, deactivated users, users who turned
 * send_read_receipts off, users who muted the caller and users the caller muted; bots are
 * included, and so is the caller once they have read it. Whoever marks a message unread again
 * drops out.
 */
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { readReceiptsEnabled } from "../../lib/realm-settings.js";
import { settingOf } from "../../lib/user-settings.js";
import { readTx } from "../../store/db.js";
import { getMessageReaders } from "../../store/read-receipts.js";
import type { RealmRow, UserRow } from "../../store/types.js";

export async function getReadReceipts(deps: AppDeps, realm: RealmRow, user: UserRow, messageId: number): Promise<number[]> {
  const tx = readTx(deps.store);
  const { message } = await accessMessage(tx, user, messageId);
  if (!readReceiptsEnabled(realm)) throw new ApiError("Read receipts are disabled in this organization.");
  const readers = await getMessageReaders(tx, message.id, message.sender_id, user.id);
  return readers.filter((r) => settingOf(r.settings, "send_read_receipts") !== false).map((r) => r.id);
}
