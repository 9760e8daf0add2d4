/**
 * Updating another account (spec 4.11; Zulip's update-user): full name, role (with the owner
 * rules), custom profile data and, for owners with can_change_user_emails, the real address.
 * Every check runs before the first write, in one transaction.
 */
import { auditUserChange } from "./user-audit.js";
import { accessUserByIdOrEmail } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, mustBeAdmin, mustBeOwner } from "../../errors.js";
import { isValidEmail } from "../../lib/email.js";
import { apiEmailFor, emailVisibilityOf, fakeEmailDomain } from "../../policy/email-visibility.js";
import { ROLE, isOwner } from "../../policy/roles.js";
import { mayChangeRole, roleChangeNeedsOwner } from "../../policy/users.js";
import { transaction, type Tx } from "../../store/db.js";
import { getDirectGroupIds } from "../../store/groups.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { countActiveHumanOwners, getUserByDeliveryEmail, getUserById, updateUser } from "../../store/users.js";
import { checkProfileData, doUpdateProfileData, type ProfileDataEntry } from "./profile-data.js";
import { setRoleGroups } from "../groups/role-groups.js";
import {
  publishBotUpdate,
  publishDeliveryEmailChanges,
  publishBotAccessForRole,
  publishGroupMembershipChanges,
  publishUserUpdate,
  publishViewerEmailAccessChanges,
} from "./user-events.js";
import { checkFullName } from "./users.js";

export interface UpdateUserInput {
  fullName?: string;
  role?: number;
  profileData?: ProfileDataEntry[];
  newEmail?: string;
}

/** An active human owner with no other active human owner beside them. */
export const isLastOwner = async (tx: Tx, user: UserRow) =>
  user.role === ROLE.OWNER && !user.is_bot && user.is_active && (await countActiveHumanOwners(tx, user.realm_id)) <= 1;

async function checkRoleChange(tx: Tx, actor: UserRow, target: UserRow, role: number): Promise<void> {
  if (!mayChangeRole(actor, target.role, role)) throw roleChangeNeedsOwner(target.role, role) ? mustBeOwner() : mustBeAdmin();
  if (await isLastOwner(tx, target)) throw new ApiError("The owner permission cannot be removed from the only organization owner.");
}

async function checkNewEmail(tx: Tx, realm: RealmRow, actor: UserRow, target: UserRow, email: string): Promise<string> {
  if (!isOwner(actor)) throw mustBeOwner();
  if (!actor.can_change_user_emails) throw new ApiError("User not authorized to change user emails");
  return checkEmailAvailable(tx, realm, target, email);
}

/** A valid address that no other account of the realm uses (the operator's change-email needs no more). */
export async function checkEmailAvailable(tx: Tx, realm: RealmRow, target: UserRow, email: string): Promise<string> {
  const trimmed = email.trim();
  if (!isValidEmail(trimmed)) throw new ApiError(`Invalid email address '${trimmed}'`);
  const holder = await getUserByDeliveryEmail(tx, realm.id, trimmed);
  if (holder && holder.id !== target.id) throw new ApiError(`Email '${trimmed}' already in use`);
  return trimmed;
}

/**
 * Changes a role and the role's system groups; the user's view of others' addresses follows.
 * `actor` is null for the server's operator (manage change-role), as Zulip's acting_user=None.
 */
export async function doChangeRole(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow | null, target: UserRow, role: number): Promise<void> {
  const now = deps.clock.now();
  const groupsBefore = await getDirectGroupIds(tx, target.id);
  await updateUser(tx, target.id, { role });
  await setRoleGroups(tx, realm, target, target.role, role, now);
  await publishGroupMembershipChanges(deps, tx, target, groupsBefore, await getDirectGroupIds(tx, target.id));
  await publishBotAccessForRole(deps, tx, target, role);
  await auditUserChange(deps, tx, "user_role_changed", actor, target, { old_value: target.role, new_value: role });
  await publishUserUpdate(deps, tx, realm.id, { user_id: target.id, role });
  await publishViewerEmailAccessChanges(deps, tx, target, { ...target, role });
}

export async function doChangeFullName(deps: AppDeps, tx: Tx, target: UserRow, fullName: string): Promise<void> {
  await updateUser(tx, target.id, { full_name: fullName });
  await publishUserUpdate(deps, tx, target.realm_id, { user_id: target.id, full_name: fullName });
  if (target.is_bot) await publishBotUpdate(deps, tx, target, { full_name: fullName });
}

/** A new real address; the API email follows it while the address is visible to everyone (a bot's always is). */
export async function doChangeDeliveryEmail(deps: AppDeps, tx: Tx, realm: RealmRow, target: UserRow, email: string): Promise<void> {
  const after = { ...target, delivery_email: email };
  const apiEmail = apiEmailFor(after, emailVisibilityOf(target), fakeEmailDomain(deps.config, realm.string_id));
  await updateUser(tx, target.id, { delivery_email: email, email: apiEmail });
  await publishDeliveryEmailChanges(deps, tx, target, { ...after, email: apiEmail });
  if (apiEmail !== target.email) await publishUserUpdate(deps, tx, realm.id, { user_id: target.id, new_email: apiEmail });
}

/** PATCH /users/{user_id} (or /users/{email}). */
export async function updateUserAccount(deps: AppDeps, realm: RealmRow, actor: UserRow, key: string, input: UpdateUserInput): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const target = await accessUserByIdOrEmail(tx, actor, key, { allowDeactivated: true, allowBots: true, forAdmin: true });
    const changeRole = input.role !== undefined && input.role !== target.role;
    if (changeRole) await checkRoleChange(tx, actor, target, input.role as number);
    const name = input.fullName;
    const fullName = name !== undefined && name !== target.full_name && name.trim() !== "" ? checkFullName(name) : undefined;
    const profile = input.profileData ? await checkProfileData(tx, realm, actor, input.profileData, { enforceEditable: false }) : [];
    const newEmail = input.newEmail === undefined ? undefined : await checkNewEmail(tx, realm, actor, target, input.newEmail);

    if (changeRole) await doChangeRole(deps, tx, realm, actor, target, input.role as number);
    if (fullName !== undefined) await doChangeFullName(deps, tx, target, fullName);
    await doUpdateProfileData(deps, tx, realm, target, profile);
    if (newEmail !== undefined && newEmail !== target.delivery_email) {
      await doChangeDeliveryEmail(deps, tx, realm, (await getUserById(tx, realm.id, target.id)) as UserRow, newEmail);
    }
  });
}
