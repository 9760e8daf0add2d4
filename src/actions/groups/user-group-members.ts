/**
 * Changing who is in a user group (spec 4.20; Zulip's update-user-group-members and
 * update-user-group-subgroups). Joining yourself needs can_join_group, leaving can_leave_group;
 * changing others needs can_add_members_group / can_remove_members_group; subgroups are added
 * with can_add_members_group and removed with can_manage_group (can_manage_group and the realm's
 * can_manage_all_groups cover everything). A subgroup may never contain its supergroup.
 */
import { accessGroupForUpdate } from "../../access/user-groups.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import type { UserGroupPermission } from "../../policy/user-groups.js";
import { transaction, type Tx } from "../../store/db.js";
import { addGroupMembers, addSubgroups, removeGroupMembers } from "../../store/groups.js";
import type { RealmRow, UserGroupRow, UserRow } from "../../store/types.js";
import { getDirectMembersAmong, getDirectSubgroupIds, getRecursiveSubgroupIds, removeSubgroups } from "../../store/user-groups.js";
import { getUsersByIds } from "../../store/users.js";
import { sendDirectNotice, silentMention } from "../bots/notification-bot.js";
import { checkActiveUserIds, checkNotGuest, checkSubgroupIds } from "./user-group-checks.js";
import { publishGroupEvent } from "./user-groups.js";

export interface MembershipChanges {
  add?: number[];
  delete?: number[];
  addSubgroups?: number[];
  deleteSubgroups?: number[];
}

/** Joining or leaving yourself has its own permission; either way the general one also works. */
function permissionsFor(actor: UserRow, ids: readonly number[], self: UserGroupPermission, others: UserGroupPermission): UserGroupPermission[] {
  return ids.length === 1 && ids[0] === actor.id ? [self, others] : [others];
}

/** Zulip's notice to users someone else added to or removed from a group (never to bots). */
async function notifyMembers(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, group: UserGroupRow, userIds: number[], verb: string) {
  for (const user of await getUsersByIds(tx, realm.id, userIds)) {
    if (user.id === actor.id || user.is_bot || !user.is_active) continue;
    const content = `${silentMention(actor)} ${verb} the group @_*${group.name}*.`;
    await sendDirectNotice(deps, tx, realm, user, content, { actingUser: actor });
  }
}

async function addMembers(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, groupId: number, ids: number[]): Promise<void> {
  const group = await accessGroupForUpdate(tx, realm, actor, groupId, permissionsFor(actor, ids, "can_join_group", "can_add_members_group"), {
    allowDeactivated: true,
  });
  const users = await checkActiveUserIds(tx, realm, ids);
  const already = await getDirectMembersAmong(tx, group.id, users);
  if (already.length > 0) throw new ApiError(`User ${already[0]} is already a member of this group`);
  await addGroupMembers(tx, group.id, users);
  await publishGroupEvent(deps, tx, realm.id, { op: "add_members", group_id: group.id, user_ids: users });
  await notifyMembers(deps, tx, realm, actor, group, users, "added you to");
}

async function removeMembers(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, groupId: number, ids: number[]): Promise<void> {
  const users = await checkActiveUserIds(tx, realm, ids);
  const group = await accessGroupForUpdate(tx, realm, actor, groupId, permissionsFor(actor, ids, "can_leave_group", "can_remove_members_group"), {
    allowDeactivated: true,
  });
  const present = await getDirectMembersAmong(tx, group.id, users);
  const absent = users.find((id) => !present.includes(id));
  if (absent !== undefined) throw new ApiError(`There is no member '${absent}' in this user group`);
  await removeGroupMembers(tx, group.id, users);
  await publishGroupEvent(deps, tx, realm.id, { op: "remove_members", group_id: group.id, user_ids: users });
  await notifyMembers(deps, tx, realm, actor, group, users, "removed you from");
}

async function addGroupSubgroups(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, groupId: number, ids: number[]): Promise<void> {
  const group = await accessGroupForUpdate(tx, realm, actor, groupId, ["can_add_members_group"], { allowDeactivated: true });
  const subgroups = await checkSubgroupIds(tx, realm, ids);
  const existing = (await getDirectSubgroupIds(tx, [group.id])).get(group.id) ?? [];
  const duplicate = subgroups.find((id) => existing.includes(id));
  if (duplicate !== undefined) throw new ApiError(`User group ${duplicate} is already a subgroup of this group.`);
  if ((await getRecursiveSubgroupIds(tx, subgroups)).has(group.id)) {
    throw new ApiError(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  }
  await addSubgroups(tx, group.id, subgroups);
  await publishGroupEvent(deps, tx, realm.id, { op: "add_subgroups", group_id: group.id, direct_subgroup_ids: subgroups });
}

async function removeGroupSubgroups(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, groupId: number, ids: number[]): Promise<void> {
  const group = await accessGroupForUpdate(tx, realm, actor, groupId, ["can_manage_group"], { allowDeactivated: true });
  const subgroups = await checkSubgroupIds(tx, realm, ids);
  const existing = (await getDirectSubgroupIds(tx, [group.id])).get(group.id) ?? [];
  const missing = subgroups.find((id) => !existing.includes(id));
  if (missing !== undefined) throw new ApiError(`User group ${missing} is not a subgroup of this group.`);
  await removeSubgroups(tx, group.id, subgroups);
  await publishGroupEvent(deps, tx, realm.id, { op: "remove_subgroups", group_id: group.id, direct_subgroup_ids: subgroups });
}

/** POST /user_groups/{id}/members: all four kinds of change, in one transaction. */
export async function updateGroupMembership(deps: AppDeps, realm: RealmRow, actor: UserRow, groupId: number, changes: MembershipChanges): Promise<void> {
  checkNotGuest(actor);
  const { add = [], delete: remove = [], addSubgroups: addSub = [], deleteSubgroups: removeSub = [] } = changes;
  if (add.length + remove.length + addSub.length + removeSub.length === 0) {
    throw new ApiError('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  await transaction(deps.store, async (tx) => {
    if (add.length > 0) await addMembers(deps, tx, realm, actor, groupId, add);
    if (remove.length > 0) await removeMembers(deps, tx, realm, actor, groupId, remove);
    if (addSub.length > 0) await addGroupSubgroups(deps, tx, realm, actor, groupId, addSub);
    if (removeSub.length > 0) await removeGroupSubgroups(deps, tx, realm, actor, groupId, removeSub);
  });
}

/** POST /user_groups/{id}/subgroups. */
export async function updateGroupSubgroups(deps: AppDeps, realm: RealmRow, actor: UserRow, groupId: number, add: number[], remove: number[]): Promise<void> {
  checkNotGuest(actor);
  if (add.length + remove.length === 0) throw new ApiError('Nothing to do. Specify at least one of "add" or "delete".');
  await transaction(deps.store, async (tx) => {
    if (add.length > 0) await addGroupSubgroups(deps, tx, realm, actor, groupId, add);
    if (remove.length > 0) await removeGroupSubgroups(deps, tx, realm, actor, groupId, remove);
  });
}
