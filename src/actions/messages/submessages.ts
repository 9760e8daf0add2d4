/**
 * Submessages: the data behind widgets (polls, to-do lists). Zulip's POST /submessage (an
 * undocumented endpoint the clients use to vote; zerver/views/submessage.py and
 * zerver/actions/submessage.py read for behaviour) and the widget a `/poll` or `/todo` message
 * starts when it is sent (zerver/lib/widget.py).
 */
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidMessage } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { checkPollAction, checkTodoAction, declaredWidgetType } from "../../lib/widget-events.js";
import { pythonJsonDumps, widgetFromContent } from "../../lib/widgets.js";
import { transaction, type Tx } from "../../store/db.js";
import { lockMessage } from "../../store/reactions.js";
import { countSubmessages, getWidgetSubmessageContent, hasSubmessageFrom, insertSubmessage } from "../../store/submessages.js";
import type { UserRow } from "../../store/types.js";
import { messageEventRecipientIds } from "./message-audience.js";
import { doFollowOnParticipation } from "../users/user-topics.js";

/**
 * Bounds Zulip does not have (its columns are unbounded text): a submessage is at most as long as
 * a message, its type a short word, and one message carries at most this many submessages (every
 * vote is one, and every fetch of the message loads them all).
 */
export const MAX_SUBMESSAGE_CONTENT_LENGTH = 10000;
export const MAX_MSG_TYPE_LENGTH = 50;
export const MAX_SUBMESSAGES_PER_MESSAGE = 20000;

export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface AddSubmessageInput {
  messageId: number;
  msgType: string;
  content: string;
}

function checkBounds(input: AddSubmessageInput): void {
  if ([...input.msgType].length > MAX_MSG_TYPE_LENGTH) {
    throw new ApiError(`msg_type is too long (limit: ${MAX_MSG_TYPE_LENGTH} characters)`);
  }
  if ([...input.content].length > MAX_SUBMESSAGE_CONTENT_LENGTH) {
    throw new ApiError(`content is too long (limit: ${MAX_SUBMESSAGE_CONTENT_LENGTH} characters)`);
  }
}

/** Zulip validates what is said to a poll or a to-do list; other submessages are free-form JSON. */
function checkWidgetAction(widgetType: string | null, data: unknown, isWidgetAuthor: boolean): void {
  if (widgetType === "poll") checkPollAction(data, isWidgetAuthor);
  if (widgetType === "todo") checkTodoAction(data, isWidgetAuthor);
}

/** POST /submessage. */
export async function checkAddSubmessage(deps: AppDeps, user: UserRow, input: AddSubmessageInput): Promise<void> {
  checkBounds(input);
  await transaction(deps.store, async (tx) => {
    // Serialize with other submessages on the message (Zulip locks the row), so the sender check
    // below sees the widget's first submessage.
    await lockMessage(tx, input.messageId);
    const accessed = await accessMessage(tx, user, input.messageId);
    // Messages of archived channels stay readable but no longer change (is_modifying_message).
    if (accessed.channel?.deactivated) throw invalidMessage();
    const { message } = accessed;
    const isWidgetAuthor = message.sender_id === user.id;
    // Anyone who can read the message may take part, but only once its sender has started.
    if (!isWidgetAuthor && !(await hasSubmessageFrom(tx, message.id, message.sender_id))) {
      throw new ApiError("You cannot attach a submessage to this message.");
    }
    let data: unknown;
    try {
      data = JSON.parse(input.content);
    } catch {
      throw new ApiError("Invalid json for submessage");
    }
    checkWidgetAction(declaredWidgetType(await getWidgetSubmessageContent(tx, message.id)), data, isWidgetAuthor);
    if ((await countSubmessages(tx, message.id)) >= MAX_SUBMESSAGES_PER_MESSAGE) {
      throw new ApiError(`This message already has the maximum number of submessages (${MAX_SUBMESSAGES_PER_MESSAGE}).`);
    }
    const row = { message_id: message.id, sender_id: user.id, msg_type: input.msgType, content: input.content };
    const id = await insertSubmessage(tx, row);
    if (accessed.channel) await doFollowOnParticipation(deps, tx, user, accessed.channel, message.subject);
    const event = { type: "submessage", msg_type: row.msg_type, message_id: row.message_id, submessage_id: id, sender_id: row.sender_id, content: row.content };
    publishOnCommit(tx, deps.events, event, await messageEventRecipientIds(tx, [message], accessed.channel));
  });
}

/**
 * When a message just written starts a widget, stores its first submessage and returns the
 * message's submessages for the `message` event (empty when it starts none).
 */
export async function doAddWidgetOnSend(tx: Tx, messageId: number, senderId: number, content: string): Promise<Submessage[]> {
  const widget = widgetFromContent(content);
  if (widget === null) return [];
  const row = { message_id: messageId, sender_id: senderId, msg_type: "widget", content: pythonJsonDumps(widget) };
  return [{ id: await insertSubmessage(tx, row), ...row }];
}
