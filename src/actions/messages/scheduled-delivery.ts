/**
 * Sending what falls due on the schedule (Zulip's try_deliver_one_scheduled_message and
 * send_scheduled_message, zerver/actions/scheduled_messages.py): one row per transaction, taken by
 * claimNextDue so that several processes never send one row twice, and sent through the normal
 * send path (events, unread rows, mentions), dated when it is sent as Zulip's is. A scheduled
 * message is checked again at delivery, as if sent then; a refusal marks it `failed` with Zulip's
 * reason, and Notification Bot tells the sender (not for a deactivated sender or organization,
 * and not for reminders, as in Zulip). A scheduled message more than ten minutes late is not sent
 * (Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES); a reminder is sent however late.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { globalTime } from "../../lib/notice-syntax.js";
import { Membership } from "../../policy/group-settings.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { getRealmById } from "../../store/realms.js";
import {
  DELIVERY_TYPE,
  claimNextDue,
  lockWaiting,
  markDelivered,
  nextDueTime,
  updateScheduledMessage,
  type ScheduledMessageRow,
} from "../../store/scheduled-messages.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { sendDirectNotice } from "../bots/notification-bot.js";
import { sendReminder } from "./reminders.js";
import { presentScheduledMessage } from "./scheduled-messages.js";
import { checkDelivery, doSendMessage } from "./send-message.js";

export const LATE_CUTOFF_SECONDS = 10 * 60;

/** What one attempt did: nothing was due, a row was sent, or a row failed. */
export type DeliveryOutcome = "none" | "delivered" | "failed";

/** Zulip's messages for a sender or organization deactivated since scheduling (no notice follows). */
const REALM_DEACTIVATED = () => new ApiError("This organization has been deactivated", "REALM_DEACTIVATED", 401);
const USER_DEACTIVATED = () => new ApiError("Account is deactivated", "USER_DEACTIVATED", 401);

/** When the next row is due (UTC seconds), or null: the scheduler sleeps until then. */
export function nextScheduledDelivery(deps: AppDeps): Promise<number | null> {
  return nextDueTime(readTx(deps.store));
}

/** A scheduled message's send, checked as a message sent now (Zulip calls check_message again). */
async function sendLater(deps: AppDeps, tx: Tx, realm: RealmRow, sender: UserRow, row: ScheduledMessageRow, now: number): Promise<number> {
  if (now > Number(row.scheduled_timestamp) + LATE_CUTOFF_SECONDS) throw new ApiError("Message could not be sent at the scheduled time.");
  const membership = await Membership.load(tx, sender);
  const target =
    row.recipient_type === "stream"
      ? { type: "stream", to: String(row.channel_id), topic: row.topic }
      : { type: "private", to: row.to_user_ids };
  const delivery = await checkDelivery(deps, tx, realm, sender, target, membership);
  return doSendMessage(deps, tx, realm, sender, membership, delivery, row.content, { client: row.sending_client, readBySender: row.read_by_sender });
}

async function deliver(deps: AppDeps, tx: Tx, row: ScheduledMessageRow, now: number): Promise<void> {
  // Zulip repeats the account checks of a request, as the state may have changed since.
  const realm = await getRealmById(tx, row.realm_id);
  if (!realm || realm.deactivated) throw REALM_DEACTIVATED();
  const sender = await getUserById(tx, realm.id, row.sender_id);
  if (!sender || !sender.is_active) throw USER_DEACTIVATED();
  const reminder = row.delivery_type === DELIVERY_TYPE.REMIND;
  const messageId = reminder ? await sendReminder(deps, tx, realm, sender, row) : await sendLater(deps, tx, realm, sender, row, now);
  if (!(await markDelivered(tx, row.id, messageId))) throw new Error(`scheduled message ${row.id} was taken by another delivery`);
  const removed = reminder
    ? { type: "reminders", op: "remove", reminder_id: row.id }
    : { type: "scheduled_messages", op: "remove", scheduled_message_id: row.id };
  publishOnCommit(tx, deps.events, removed, [sender.id]);
}

/** Zulip's send_failed_scheduled_message_notification text (the time as a <time:> global time). */
function failureNotice(row: ScheduledMessageRow, reason: string): string {
  return `The message you scheduled for ${globalTime(Number(row.scheduled_timestamp))} was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)`;
}

/**
 * Marks a row failed with its reason, if it is still waiting (another process may have recorded
 * the same failure first), then tells the sender: the scheduled_messages update event, and
 * Notification Bot's message in a transaction of its own, so that a notice that cannot be sent
 * never leaves the row waiting to be tried again.
 */
async function recordFailure(deps: AppDeps, id: number, err: unknown, log: (err: unknown) => void): Promise<void> {
  const reason = err instanceof ApiError ? err.message : "Internal server error";
  if (!(err instanceof ApiError)) log(err);
  const silent = err instanceof ApiError && (err.code === "REALM_DEACTIVATED" || err.code === "USER_DEACTIVATED");
  const failed = await transaction(deps.store, async (tx) => {
    const row = await lockWaiting(tx, id);
    if (!row) return null;
    const updated = await updateScheduledMessage(tx, id, { failed: true, failure_message: reason });
    if (silent || row.delivery_type === DELIVERY_TYPE.REMIND) return null;
    publishOnCommit(tx, deps.events, { type: "scheduled_messages", op: "update", scheduled_message: presentScheduledMessage(updated) }, [row.sender_id]);
    return updated;
  });
  if (!failed) return;
  try {
    await transaction(deps.store, async (tx) => {
      const realm = (await getRealmById(tx, failed.realm_id)) as RealmRow;
      const sender = (await getUserById(tx, realm.id, failed.sender_id)) as UserRow;
      await sendDirectNotice(deps, tx, realm, sender, failureNotice(failed, reason), { actingUser: sender });
    });
  } catch (noticeErr) {
    log(noticeErr);
  }
}

/**
 * Sends the earliest row due now, if any. Whatever stops the send rolls it back whole and marks
 * the row failed (an unexpected error as Zulip's "Internal server error"); when even that cannot
 * be written (the store is unreachable), the error propagates and the row stays waiting.
 */
export async function deliverNextDue(deps: AppDeps, log: (err: unknown) => void = () => {}): Promise<DeliveryOutcome> {
  const now = deps.clock.now();
  // Usually nothing is due: finding that out needs no write transaction (on SQLite one would wake
  // the checkpoint worker of an idle server, store/checkpointer.ts).
  const due = await nextScheduledDelivery(deps);
  if (due === null || due > now) return "none";
  let attempted: number | null = null;
  try {
    return await transaction(deps.store, async (tx) => {
      const row = await claimNextDue(tx, now);
      if (!row) return "none";
      attempted = row.id;
      await deliver(deps, tx, row, now);
      return "delivered";
    });
  } catch (err) {
    if (attempted === null) throw err;
    await recordFailure(deps, attempted, err, log);
    return "failed";
  }
}

/** Sends up to `limit` due rows, one transaction each; answers how many were attempted. */
export async function deliverDue(deps: AppDeps, limit: number, log?: (err: unknown) => void): Promise<number> {
  let attempted = 0;
  while (attempted < limit && (await deliverNextDue(deps, log)) !== "none") attempted++;
  return attempted;
}
