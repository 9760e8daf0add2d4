/**
 * Your status (spec 4.12; Zulip's update-status and get-user-status): status text of at most 60
 * code points and an emoji, each changing only when passed; `away` is the deprecated inverse of
 * presence_enabled. Everyone in the realm hears of a change (user_status event).
 */
import { accessUserById, userIdsWhoCanAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { publishUserSettingChange } from "../../events/user-settings-events.js";
import { settingOf } from "../../lib/user-settings.js";
import { transaction, type Tx } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";
import { getUserStatus, saveUserStatus, type StatusChanges, type UserStatusRow } from "../../store/user-status.js";
import { updateUser } from "../../store/users.js";
import { REACTION_TYPE, checkEmojiRequest, getEmojiData } from "../realm/emoji-data.js";
import { checkHumanCaller } from "../caller-checks.js";

export const MAX_STATUS_TEXT_LENGTH = 60;

export interface StatusInput {
  statusText?: string;
  away?: boolean;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/** The emoji fields to store: cleared by an empty name, looked up or checked otherwise. */
async function checkStatusEmoji(tx: Tx, realmId: number, input: StatusInput): Promise<StatusChanges> {
  if (input.emojiName === undefined) {
    if (input.emojiCode !== undefined || input.reactionType !== undefined) {
      throw new ApiError("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
    }
    return {};
  }
  if (input.emojiName === "") return { emoji_name: "", emoji_code: "", reaction_type: REACTION_TYPE.UNICODE };
  let emojiCode = input.emojiCode;
  let reactionType = input.reactionType;
  if (emojiCode === undefined || reactionType === undefined) {
    const data = await getEmojiData(tx, realmId, input.emojiName);
    emojiCode = data.emojiCode;
    reactionType = data.reactionType;
  }
  await checkEmojiRequest(tx, realmId, input.emojiName, emojiCode, reactionType);
  return { emoji_name: input.emojiName, emoji_code: emojiCode, reaction_type: reactionType };
}

function checkStatusText(input: StatusInput): string | undefined {
  const statusText = input.statusText?.trim();
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw new ApiError(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  if (input.away === undefined && statusText === undefined && input.emojiName === undefined) {
    throw new ApiError("Client did not pass any new values.");
  }
  return statusText;
}

/** Applies checked changes to `user`'s status and tells everyone who may access the user. */
async function doUpdateStatus(deps: AppDeps, tx: Tx, user: UserRow, input: StatusInput, statusText: string | undefined): Promise<void> {
  const changes: StatusChanges = { ...(await checkStatusEmoji(tx, user.realm_id, input)) };
  if (statusText !== undefined) changes.status_text = statusText;
  const event: Record<string, unknown> = { type: "user_status", user_id: user.id, ...changes };
  if (input.away !== undefined) {
    const stored = JSON.parse(user.settings) as Record<string, unknown>;
    stored.presence_enabled = !input.away;
    await updateUser(tx, user.id, { settings: JSON.stringify(stored) });
    publishUserSettingChange(tx, deps.events, user, "presence_enabled", !input.away);
    event.away = input.away;
  }
  if (Object.keys(changes).length > 0) await saveUserStatus(tx, user.id, changes, deps.clock.now());
  // To those who may access the user (can_access_all_users_group, FL 228).
  publishOnCommit(tx, deps.events, event as { type: string }, await userIdsWhoCanAccess(tx, user));
}

/** POST /users/me/status. */
export async function updateOwnStatus(deps: AppDeps, user: UserRow, input: StatusInput): Promise<void> {
  checkHumanCaller(user);
  const statusText = checkStatusText(input);
  await transaction(deps.store, (tx) => doUpdateStatus(deps, tx, user, input, statusText));
}

/**
 * POST /users/{user_id}/status (FL 407): an administrator (an administrator bot too, since FL
 * 473) sets another active human user's status text and emoji. `away` is the user's own
 * presence setting, not part of this endpoint.
 */
export async function updateStatusOf(deps: AppDeps, actor: UserRow, userId: number, input: Omit<StatusInput, "away">): Promise<void> {
  await transaction(deps.store, async (tx) => {
    // Bots are not targets, so only administrators pass canAdminUser here (Zulip's access_user_by_id).
    const target = await accessUserById(tx, actor, userId, { forAdmin: true });
    await doUpdateStatus(deps, tx, target, input, checkStatusText(input));
  });
}

/** The status object: only the parts that are set (away when presence sharing is off). */
export function presentStatus(row: UserStatusRow | undefined, user: Pick<UserRow, "settings">): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (settingOf(user.settings, "presence_enabled") === false) out.away = true;
  if (row?.status_text) out.status_text = row.status_text;
  if (row?.emoji_name) {
    out.emoji_name = row.emoji_name;
    out.emoji_code = row.emoji_code;
    out.reaction_type = row.reaction_type;
  }
  return out;
}

/** GET /users/{user_id}/status. */
export async function getStatusOf(tx: Tx, viewer: UserRow, userId: number): Promise<Record<string, unknown>> {
  const target = await accessUserById(tx, viewer, userId, { forAdmin: false, allowBots: true, allowDeactivated: true });
  return presentStatus(await getUserStatus(tx, target.id), target);
}
