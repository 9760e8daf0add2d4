/**
 * Muting and unmuting users (Zulip's mute-user and unmute-user, FL 48; bots may be muted since FL
 * 188). Muting marks every unread message from that user read at once, with the usual
 * update_message_flags event (Zulip's do_mark_muted_user_messages_as_read); from then on their
 * new messages arrive read (send-message.ts, policy/muted-users.ts). Either change sends the
 * caller's clients the whole `muted_users` list, and is recorded in the audit log.
 */
import { accessUserById } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { transaction, type Tx } from "../../store/db.js";
import { deleteMute, getMutedUsers, getUnreadFromSender, insertMute } from "../../store/muted-users.js";
import { insertAuditLog } from "../../store/realms.js";
import type { UserRow } from "../../store/types.js";
import { changeFlagBit } from "../../store/user-messages.js";

/** Any account of the realm, bots and deactivated users included (Zulip's access_user_by_id_including_cross_realm). */
async function accessMutable(tx: Tx, user: UserRow, mutedUserId: number): Promise<UserRow> {
  return accessUserById(tx, user, mutedUserId, { allowBots: true, allowDeactivated: true, forAdmin: false });
}

async function publishMutedUsers(deps: AppDeps, tx: Tx, user: UserRow): Promise<void> {
  publishOnCommit(tx, deps.events, { type: "muted_users", muted_users: await getMutedUsers(tx, user.id) }, [user.id]);
}

export async function checkMuteUser(deps: AppDeps, user: UserRow, mutedUserId: number): Promise<void> {
  if (mutedUserId === user.id) throw new ApiError("Cannot mute self");
  await transaction(deps.store, async (tx) => {
    const muted = await accessMutable(tx, user, mutedUserId);
    const now = deps.clock.now();
    if (!(await insertMute(tx, user.id, muted.id, now))) throw new ApiError("User already muted");
    const unread = await getUnreadFromSender(tx, user.id, muted.id);
    if (unread.length > 0) {
      await changeFlagBit(tx, user.id, unread, FLAG_BITS.read, true);
      publishOnCommit(tx, deps.events, { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: unread, all: false }, [user.id]);
    }
    await publishMutedUsers(deps, tx, user);
    await insertAuditLog(tx, { realm_id: user.realm_id, event_type: "user_muted", event_time: now, acting_user_id: user.id, modified_user_id: user.id, extra_data: { muted_user_id: muted.id } });
  });
}

export async function checkUnmuteUser(deps: AppDeps, user: UserRow, mutedUserId: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const muted = await accessMutable(tx, user, mutedUserId);
    if (!(await deleteMute(tx, user.id, muted.id))) throw new ApiError("User is not muted");
    await publishMutedUsers(deps, tx, user);
    await insertAuditLog(tx, {
      realm_id: user.realm_id,
      event_type: "user_unmuted",
      event_time: deps.clock.now(),
      acting_user_id: user.id,
      modified_user_id: user.id,
      extra_data: { unmuted_user_id: muted.id },
    });
  });
}
