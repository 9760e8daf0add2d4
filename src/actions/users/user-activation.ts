/**
 * Deactivating and reactivating accounts (Zulip's deactivate-user, deactivate-own-user,
 * reactivate-user). A deactivated user's bots are deactivated with them; the last owner, and the
 * last active account, cannot be deactivated (CANNOT_DEACTIVATE_LAST_USER). Under
 * can_access_all_users_group a deactivated user's channels stop giving guests access to them:
 * the is_active change goes to those who may still access them (FL 303), and guests who lose or
 * regain access get realm_user remove or add (actions/users/user-access-events.ts).
 */
import { auditUserChange } from "./user-audit.js";
import { accessUserById, userIdsWhoCanAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, mustBeOwner } from "../../errors.js";
import { isOwner } from "../../policy/roles.js";
import { transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import {
  activeUserWithFullName,
  countActiveUsers,
  deleteSessionsOfUser,
  getUserById,
  listBotsOwnedBy,
  setSubscriptionsUserActive,
  updateUser,
} from "../../store/users.js";
import { doDeactivationActions, type DeactivationActions } from "./deactivation-actions.js";
import { publishAccessChangeOfUser } from "./user-access-events.js";
import { isLastOwner } from "./user-admin.js";
import { publishActivityChange, publishBotAdded, publishBotDeleted, publishUserUpdate } from "./user-events.js";

/** Zulip's CannotDeactivateLastUserError: `entity` names what the user is the last of. */
export function cannotDeactivateLastUser(isLastOwnerOfRealm: boolean): ApiError {
  const entity = isLastOwnerOfRealm ? "organization owner" : "user";
  return new ApiError(`Cannot deactivate the only ${entity}.`, "CANNOT_DEACTIVATE_LAST_USER", 400, {
    is_last_owner: isLastOwnerOfRealm,
    entity,
  });
}

async function deactivateOne(deps: AppDeps, tx: Tx, actor: UserRow | null, user: UserRow): Promise<void> {
  const audienceBefore = await userIdsWhoCanAccess(tx, user);
  await updateUser(tx, user.id, { is_active: false });
  await setSubscriptionsUserActive(tx, user.id, false);
  await deleteSessionsOfUser(tx, user.id);
  await auditUserChange(deps, tx, "user_deactivated", actor, user);
  const audienceAfter = await userIdsWhoCanAccess(tx, user);
  await publishUserUpdate(deps, tx, user.realm_id, { user_id: user.id, is_active: false }, audienceAfter);
  await publishAccessChangeOfUser(deps, tx, { ...user, is_active: false }, audienceBefore, audienceAfter);
  await publishActivityChange(deps, tx, user, false);
  if (user.is_bot) await publishBotDeleted(deps, tx, user);
}

/** Deactivates the user and, for a human, every active bot they own; `actor` null: the operator (manage). */
export async function doDeactivateUser(deps: AppDeps, tx: Tx, actor: UserRow | null, user: UserRow): Promise<void> {
  await deactivateOne(deps, tx, actor, user);
  if (user.is_bot) return;
  for (const bot of await listBotsOwnedBy(tx, user.id, { activeOnly: true })) await deactivateOne(deps, tx, actor, bot);
}

/**
 * DELETE /users/{user_id}: administrators; only owners may deactivate an owner. `actions` (FL 459)
 * are applied to the bots deactivated with the user, then to the user, before they are deactivated
 * (so everyone who may still see them hears of a deleted profile).
 */
export async function deactivateUserAccount(deps: AppDeps, realm: RealmRow, actor: UserRow, userId: number, actions?: DeactivationActions): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const target = await accessUserById(tx, actor, userId, { forAdmin: true });
    if (isOwner(target) && !isOwner(actor)) throw mustBeOwner();
    if (await isLastOwner(tx, target)) throw cannotDeactivateLastUser(true);
    if (actions) {
      const bots = await listBotsOwnedBy(tx, target.id, { activeOnly: true });
      await doDeactivationActions(deps, tx, realm, actor, [...bots, target], actions);
    }
    await doDeactivateUser(deps, tx, actor, (await getUserById(tx, realm.id, target.id)) ?? target);
  });
}

/** DELETE /users/me: anyone but the last active account or the last owner. */
export async function deactivateOwnAccount(deps: AppDeps, user: UserRow): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if ((await countActiveUsers(tx, user.realm_id)) <= 1) throw cannotDeactivateLastUser(false);
    if (await isLastOwner(tx, user)) throw cannotDeactivateLastUser(true);
    await doDeactivateUser(deps, tx, user, user);
  });
}

/** POST /users/{user_id}/reactivate: humans and bots; a bot's name must be free again. */
export async function reactivateUserAccount(deps: AppDeps, realm: RealmRow, actor: UserRow, userId: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const target = await accessUserById(tx, actor, userId, { forAdmin: true, allowBots: true, allowDeactivated: true });
    await checkReactivation(tx, realm, target);
    await doReactivateUser(deps, tx, realm, actor, target);
  });
}

export async function checkReactivation(tx: Tx, realm: RealmRow, target: UserRow): Promise<void> {
  if (target.is_active) throw new ApiError("User is already active.");
  if (target.is_bot && (await activeUserWithFullName(tx, realm.id, target.full_name))) {
    throw new ApiError(
      `There is already an active bot named "${target.full_name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
  }
}

/** Reactivates a checked account; `actor` null: the operator (manage reactivate-user). */
export async function doReactivateUser(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow | null, target: UserRow): Promise<void> {
  const audienceBefore = await userIdsWhoCanAccess(tx, target);
  await updateUser(tx, target.id, { is_active: true });
  await setSubscriptionsUserActive(tx, target.id, true);
  await auditUserChange(deps, tx, "user_reactivated", actor, target);
  const audienceAfter = await userIdsWhoCanAccess(tx, target);
  await publishAccessChangeOfUser(deps, tx, { ...target, is_active: true }, audienceBefore, audienceAfter);
  await publishUserUpdate(deps, tx, realm.id, { user_id: target.id, is_active: true }, audienceAfter);
  await publishActivityChange(deps, tx, target, true);
  if (target.is_bot) await publishBotAdded(deps, tx, { ...target, is_active: true });
}
