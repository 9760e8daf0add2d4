/**
 * Fetch + authorize named user groups (Zulip's access_user_group_*): anyone in the realm may read
 * a group's membership; changing a group needs can_manage_all_groups (realm), the group's
 * can_manage_group, or the setting named for the operation. System groups are changed by roles
 * only.
 */
import { ApiError } from "../errors.js";
import { Membership } from "../policy/group-settings.js";
import { groupSetting, type UserGroupPermission } from "../policy/user-groups.js";
import type { Tx } from "../store/db.js";
import type { RealmRow, UserGroupRow, UserRow } from "../store/types.js";
import { getNamedGroup } from "../store/user-groups.js";

export const invalidUserGroup = () => new ApiError("Invalid user group");
export const groupDeactivated = () => new ApiError("User group is deactivated.");

export async function accessGroupForRead(tx: Tx, realm: RealmRow, groupId: number): Promise<UserGroupRow> {
  const group = await getNamedGroup(tx, realm.id, groupId);
  if (!group) throw invalidUserGroup();
  return group;
}

/** Whether the user may use `permission` on the group (can_manage_group covers every permission). */
export function hasGroupPermission(realm: RealmRow, m: Membership, group: UserGroupRow, permission: UserGroupPermission): boolean {
  if (group.is_system_group) return false;
  if (m.has(realm.can_manage_all_groups_id, { allowEveryone: false })) return true;
  const manage = groupSetting("can_manage_group");
  if (m.has(group[manage.column], { allowEveryone: manage.config.allowEveryone })) return true;
  const setting = groupSetting(permission);
  return m.has(group[setting.column], { allowEveryone: setting.config.allowEveryone });
}

/** A group the user may change through one of `permissions` (tried in order). */
export async function accessGroupForUpdate(
  tx: Tx,
  realm: RealmRow,
  user: UserRow,
  groupId: number,
  permissions: readonly UserGroupPermission[],
  opts: { allowDeactivated: boolean },
): Promise<UserGroupRow> {
  const group = await accessGroupForRead(tx, realm, groupId);
  if (group.deactivated && !opts.allowDeactivated) throw groupDeactivated();
  const m = await Membership.load(tx, user);
  if (!permissions.some((permission) => hasGroupPermission(realm, m, group, permission))) throw new ApiError("Insufficient permission");
  return group;
}
