/**
 * Message reminders (Zulip's create-message-reminder, get-reminders, delete-reminder; FL 381, 399,
 * 415): at the chosen time Notification Bot sends the user a direct message about a message they
 * can read (reminder-content.ts), on the same schedule as scheduled messages. Scheduling checks the
 * reminder as a direct message from the user to themself (Zulip's check_message with the user as
 * sender), so it stores the text and its rendering; delivery writes the text again from the
 * message as it then is, or sends the stored text when the user can no longer read it. Only the
 * user sees their reminders; their clients hear of new and removed ones (reminders add / remove).
 */
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { realmUrl } from "../../lib/realm-url.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import {
  DELIVERY_TYPE,
  deleteScheduledMessage,
  getOwnScheduledMessage,
  insertScheduledMessage,
  listUndelivered,
  type ScheduledMessageRow,
} from "../../store/scheduled-messages.js";
import { MESSAGE_TYPE, type RealmRow, type UserRow } from "../../store/types.js";
import { getUserIdsWithRows } from "../../store/user-messages.js";
import { getUsersByIds } from "../../store/users.js";
import { sendDirectNotice } from "../bots/notification-bot.js";
import { MAX_REMINDER_NOTE_LENGTH, normalizeReminderNote, reminderContent } from "./reminder-content.js";
import { checkDeliveryTime, checkScheduledMessage } from "./scheduled-messages.js";

/** The reminder object of Zulip's API (get-reminders). */
export function presentReminder(row: ScheduledMessageRow): Record<string, unknown> {
  return {
    reminder_id: row.id,
    type: "private",
    to: JSON.parse(row.to_user_ids) as number[],
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: Number(row.scheduled_timestamp),
    failed: row.failed,
    reminder_target_message_id: Number(row.reminder_target_message_id),
  };
}

const reminderNotFound = () => new ApiError("Reminder does not exist", "BAD_REQUEST", 404);

/** The reminder text for a message the user can read; throws "Invalid message(s)" otherwise. */
async function composeReminder(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, messageId: number, note: string): Promise<string> {
  const { message, channel } = await accessMessage(tx, user, messageId);
  const participantIds = message.type === MESSAGE_TYPE.CHANNEL ? [] : await getUserIdsWithRows(tx, [message.id]);
  const people = await getUsersByIds(tx, realm.id, [...new Set([message.sender_id, ...participantIds])]);
  const sender = people.find((u) => u.id === message.sender_id) ?? { id: message.sender_id, full_name: "" };
  return reminderContent({
    realmUrl: realmUrl(deps.config.externalHost, realm.string_id),
    message,
    sender,
    channel,
    participants: people.filter((u) => participantIds.includes(u.id)),
    userId: user.id,
    note,
  });
}

/** The `reminders` section of POST /register. */
export async function remindersState(tx: Tx, user: UserRow): Promise<{ reminders: Record<string, unknown>[] }> {
  return { reminders: (await listUndelivered(tx, user.id, DELIVERY_TYPE.REMIND)).map(presentReminder) };
}

/** GET /reminders: the undelivered ones, soonest first. */
export async function getOwnReminders(deps: AppDeps, user: UserRow): Promise<Record<string, unknown>[]> {
  return (await remindersState(readTx(deps.store), user)).reminders;
}

export interface ReminderInput {
  messageId: number;
  scheduledAt: number;
  note?: string;
  client: string;
}

/** POST /reminders: answers the new reminder's id. */
export async function doCreateReminder(deps: AppDeps, realm: RealmRow, user: UserRow, input: ReminderInput): Promise<number> {
  const scheduledAt = checkDeliveryTime(deps, input.scheduledAt);
  const note = input.note ? normalizeReminderNote(input.note) : "";
  if ([...note].length > MAX_REMINDER_NOTE_LENGTH) throw new ApiError(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  return transaction(deps.store, async (tx) => {
    const content = await composeReminder(deps, tx, realm, user, input.messageId, note);
    const checked = await checkScheduledMessage(deps, tx, realm, user, { kind: "direct", userIds: [user.id] }, content);
    const row = await insertScheduledMessage(tx, {
      ...checked.columns,
      realm_id: realm.id,
      sender_id: user.id,
      delivery_type: DELIVERY_TYPE.REMIND,
      sending_client: input.client,
      scheduled_timestamp: scheduledAt,
      read_by_sender: false,
      reminder_target_message_id: input.messageId,
      reminder_note: note,
    });
    publishOnCommit(tx, deps.events, { type: "reminders", op: "add", reminders: [presentReminder(row)] }, [user.id]);
    tx.onCommit(() => deps.scheduler?.wake(scheduledAt));
    return row.id;
  });
}

/** DELETE /reminders/{id}. */
export async function doDeleteReminder(deps: AppDeps, user: UserRow, id: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const row = await getOwnScheduledMessage(tx, user.id, DELIVERY_TYPE.REMIND, id, { lock: true });
    if (!row) throw reminderNotFound();
    await deleteScheduledMessage(tx, row.id);
    publishOnCommit(tx, deps.events, { type: "reminders", op: "remove", reminder_id: row.id }, [user.id]);
  });
}

/**
 * Sends a due reminder: Notification Bot's direct message to the user (Zulip's send_reminder).
 * Answers the id of the message sent.
 */
export async function sendReminder(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, row: ScheduledMessageRow): Promise<number> {
  let content = row.content;
  try {
    content = await composeReminder(deps, tx, realm, user, Number(row.reminder_target_message_id), row.reminder_note ?? "");
  } catch (err) {
    // The message is gone or out of the user's reach: the text written when it was scheduled.
    if (!(err instanceof ApiError)) throw err;
  }
  return sendDirectNotice(deps, tx, realm, user, content, { actingUser: user });
}
