/**
 * Which users a user may access under the realm's can_access_all_users_group (FL 225), as Zulip
 * decides it in zerver/lib/users.py: check_user_can_access_all_users, user_access_restricted_in_realm,
 * check_can_access_user, get_accessible_user_ids (pure; access/users.ts loads the rows).
 *
 * - The setting may only name role:everyone or role:members (allowed_system_groups), so only
 *   guests are ever limited, and all of them are once it names role:members. Spectators are not
 *   limited ("they have very limited access to users already").
 * - A limited guest accesses themselves, every bot ("all users can access all the bots"), and the
 *   humans they share a conversation with: an active subscription to the same channel (the other
 *   user active) or direct-message group, or a 1:1 direct message either way. Zulip reads the 1:1
 *   case from messages (get_users_involved_in_dms_with_target_users) until 1:1 conversations are
 *   groups too; Parley keeps 1:1 conversations on personal recipients, so it reads messages.
 * - For lists (register's realm_users, GET /users) deactivated partners of direct messages stay
 *   accessible (get_accessible_user_ids(include_deactivated_users=True)); a deactivated user who
 *   only shared channels is not ("we treat deactivated channel subscribers as inaccessible").
 * - Everything else about an inaccessible user is hidden: they are an "Unknown user" placeholder
 *   (present/present-user.ts presentInaccessibleUser) or left out. What stays visible, as in Zulip, is
 *   which user ids exist: group members, channel subscribers, reactions and message sender ids.
 */
import type { UserRow } from "../store/types.js";
import { isGuest } from "./roles.js";

/** The system group whose members may access everyone when the setting names it. */
export const ACCESS_ALL_USERS_GROUPS = { EVERYONE: "role:everyone", MEMBERS: "role:members" } as const;

/** Zulip's INACCESSIBLE_USER_NAME: how an inaccessible user is named wherever a name is shown. */
export const INACCESSIBLE_USER_NAME = "Unknown user";

/**
 * Zulip's user_access_restricted_in_realm: whether the realm limits anyone (its setting is not
 * role:everyone). `settingGroupName` is the name of the system group the setting points at.
 */
export function realmRestrictsUserAccess(settingGroupName: string | null): boolean {
  return settingGroupName !== null && settingGroupName !== ACCESS_ALL_USERS_GROUPS.EVERYONE;
}

/**
 * Zulip's check_user_can_access_all_users, negated: whether the viewer's access is limited. Non-guests
 * belong to role:members, so they never are; a guest is whenever the realm restricts access.
 */
export function viewerIsLimited(viewer: Pick<UserRow, "role">, settingGroupName: string | null): boolean {
  return isGuest(viewer) && realmRestrictsUserAccess(settingGroupName);
}

/**
 * What a viewer may access: `null` for everyone, else the human user ids they share a
 * conversation with (themselves included). Bots are always accessible.
 */
export type AccessibleHumans = ReadonlySet<number> | null;

/** Zulip's check_can_access_user, on an already-loaded view of the viewer's access. */
export function canAccessUser(viewerId: number, accessible: AccessibleHumans, target: Pick<UserRow, "id" | "is_bot">): boolean {
  return accessible === null || target.is_bot || target.id === viewerId || accessible.has(target.id);
}
