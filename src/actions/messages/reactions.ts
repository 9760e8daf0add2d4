/**
 * Adding and removing emoji reactions (spec 4.18; Zulip's add-reaction / remove-reaction).
 * A reaction is identified by (message, user, reaction_type, emoji_code); the name is display only.
 */
import { accessMessage, type AccessedMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, invalidMessage } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { transaction, type Tx } from "../../store/db.js";
import { insertUserMessages } from "../../store/messages.js";
import { deleteReaction, findReaction, insertReaction, lockMessage, type ReactionKey } from "../../store/reactions.js";
import type { UserRow } from "../../store/types.js";
import { checkEmojiRequest, getEmojiData } from "../realm/emoji-data.js";
import { messageEventRecipientIds } from "./message-audience.js";
import { doFollowOnParticipation } from "../users/user-topics.js";

export const reactionExists = () => new ApiError("Reaction already exists.", "REACTION_ALREADY_EXISTS");
export const reactionMissing = () => new ApiError("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST");

export interface AddReactionInput {
  emojiName: string;
  emojiCode?: string;
  reactionType?: string;
}

export interface RemoveReactionInput {
  emojiName?: string;
  emojiCode?: string;
  reactionType: string;
}

/**
 * The message, readable by the user and open to changes: messages of archived channels can still
 * be read but no longer reacted to (Zulip's is_modifying_message access).
 */
async function accessMessageToReact(tx: Tx, user: UserRow, messageId: number): Promise<AccessedMessage> {
  await lockMessage(tx, messageId);
  const accessed = await accessMessage(tx, user, messageId);
  if (accessed.channel?.deactivated) throw invalidMessage();
  return accessed;
}

async function publishReaction(
  deps: AppDeps,
  tx: Tx,
  op: "add" | "remove",
  user: UserRow,
  accessed: AccessedMessage,
  reaction: ReactionKey & { emojiName: string },
): Promise<void> {
  // Zulip removed the deprecated `user` object at feature level 484; `user_id` names the reactor.
  const event = {
    type: "reaction",
    op,
    user_id: user.id,
    message_id: reaction.messageId,
    emoji_name: reaction.emojiName,
    emoji_code: reaction.emojiCode,
    reaction_type: reaction.reactionType,
  };
  // No name or address rides along, so guests who may not access the reactor learn nothing more.
  publishOnCommit(tx, deps.events, event, await messageEventRecipientIds(tx, [accessed.message], accessed.channel));
}

export async function checkAddReaction(deps: AppDeps, user: UserRow, messageId: number, input: AddReactionInput): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const accessed = await accessMessageToReact(tx, user, messageId);
    let emojiCode = input.emojiCode;
    let reactionType = input.reactionType;
    if (emojiCode === undefined || reactionType === undefined) {
      // Simple clients send just a name; look up what it means now.
      const data = await getEmojiData(tx, user.realm_id, input.emojiName);
      emojiCode ??= data.emojiCode;
      reactionType ??= data.reactionType;
    }
    const key: ReactionKey = { messageId, emojiCode, reactionType };
    if (await findReaction(tx, key, user.id)) throw reactionExists();
    // Reacting with the code of an existing reaction is a vote for it: it keeps the first name, so
    // one image never shows as two reactions, and needs no validation (its custom emoji may since
    // have been deactivated).
    const existing = await findReaction(tx, key);
    const emojiName = existing?.emoji_name ?? input.emojiName;
    if (!existing) await checkEmojiRequest(tx, user.realm_id, emojiName, emojiCode, reactionType);
    if (accessed.flags === null) {
      // Reading public history leaves no row; reacting makes the message part of the user's own.
      await insertUserMessages(tx, [{ user_id: user.id, message_id: messageId, flags: FLAG_BITS.read | FLAG_BITS.historical }]);
    }
    await insertReaction(tx, key, user.id, emojiName);
    if (accessed.channel) await doFollowOnParticipation(deps, tx, user, accessed.channel, accessed.message.subject);
    await publishReaction(deps, tx, "add", user, accessed, { ...key, emojiName });
  });
}

/**
 * Removal matches on the code alone (a name given without a code is looked up), and does not
 * validate the emoji: a reaction whose emoji was renamed or deactivated must stay removable.
 */
export async function checkRemoveReaction(deps: AppDeps, user: UserRow, messageId: number, input: RemoveReactionInput): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const accessed = await accessMessageToReact(tx, user, messageId);
    let emojiCode = input.emojiCode;
    if (emojiCode === undefined) {
      if (input.emojiName === undefined) {
        throw new ApiError("At least one of the following arguments must be present: emoji_name, emoji_code");
      }
      emojiCode = (await getEmojiData(tx, user.realm_id, input.emojiName)).emojiCode;
    }
    const key: ReactionKey = { messageId, emojiCode, reactionType: input.reactionType };
    const row = await findReaction(tx, key, user.id);
    if (!row) throw reactionMissing();
    await deleteReaction(tx, row.id);
    await publishReaction(deps, tx, "remove", user, accessed, { ...key, emojiName: row.emoji_name });
  });
}
