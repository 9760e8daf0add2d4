/**
 * User groups as clients see them (GET /user_groups, register, user_group add events) and the
 * membership reads (Zulip's get-user-group-members, get-is-user-group-member,
 * get-user-group-subgroups). Members are active accounts only.
 */
import { accessGroupForRead } from "../../access/user-groups.js";
import { accessUserById } from "../../access/users.js";
import { USER_GROUP_SETTINGS } from "../../policy/user-groups.js";
import { checkNotGuest } from "./user-group-checks.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues } from "../../store/groups.js";
import type { RealmRow, UserGroupRow, UserRow } from "../../store/types.js";
import {
  getActiveDirectMembers,
  getDirectSubgroupIds,
  getRecursiveMemberIds,
  getRecursiveSubgroupIds,
  listNamedGroups,
} from "../../store/user-groups.js";

export async function presentGroups(tx: Tx, groups: readonly UserGroupRow[]): Promise<Record<string, unknown>[]> {
  const ids = groups.map((g) => g.id);
  const [members, subgroups] = await Promise.all([getActiveDirectMembers(tx, ids), getDirectSubgroupIds(tx, ids)]);
  const settingIds = groups.flatMap((g) => USER_GROUP_SETTINGS.map((s) => g[s.column]).filter((id): id is number => id !== null));
  const values = await getGroupSettingValues(tx, settingIds);
  return groups.map((g) => {
    const out: Record<string, unknown> = {
      id: g.id,
      name: g.name,
      creator_id: g.creator_id,
      date_created: g.date_created,
      description: g.description,
      members: members.get(g.id) ?? [],
      direct_subgroup_ids: subgroups.get(g.id) ?? [],
      is_system_group: g.is_system_group,
      deactivated: g.deactivated,
    };
    for (const s of USER_GROUP_SETTINGS) out[s.name] = g[s.column] === null ? null : values.get(g[s.column] as number);
    return out;
  });
}

/** Every named group of the realm (register sends these to everyone, guests included). */
export async function listGroupsForApi(tx: Tx, realm: RealmRow, includeDeactivated: boolean): Promise<Record<string, unknown>[]> {
  return presentGroups(tx, await listNamedGroups(tx, realm.id, { includeDeactivated }));
}

/** GET /user_groups. */
export async function listGroupsFor(tx: Tx, realm: RealmRow, viewer: UserRow, includeDeactivated: boolean): Promise<Record<string, unknown>[]> {
  checkNotGuest(viewer);
  return listGroupsForApi(tx, realm, includeDeactivated);
}

async function memberIds(tx: Tx, group: UserGroupRow, directOnly: boolean): Promise<number[]> {
  if (directOnly) return (await getActiveDirectMembers(tx, [group.id])).get(group.id) ?? [];
  return getRecursiveMemberIds(tx, group.id);
}

export async function groupMemberIds(tx: Tx, realm: RealmRow, viewer: UserRow, groupId: number, directOnly: boolean): Promise<number[]> {
  checkNotGuest(viewer);
  return memberIds(tx, await accessGroupForRead(tx, realm, groupId), directOnly);
}
export async function isGroupMember(tx: Tx, realm: RealmRow, viewer: UserRow, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
  checkNotGuest(viewer);
  const group = await accessGroupForRead(tx, realm, groupId);
  const target = await accessUserById(tx, viewer, userId, { forAdmin: false, allowBots: true });
  return (await memberIds(tx, group, directOnly)).includes(target.id);
}

/** Direct subgroups, or every subgroup at any depth (the group itself excluded). */
export async function groupSubgroupIds(tx: Tx, realm: RealmRow, viewer: UserRow, groupId: number, directOnly: boolean): Promise<number[]> {
  checkNotGuest(viewer);
  const group = await accessGroupForRead(tx, realm, groupId);
  const direct = (await getDirectSubgroupIds(tx, [group.id])).get(group.id) ?? [];
  if (directOnly) return direct;
  return [...(await getRecursiveSubgroupIds(tx, direct))].sort((a, b) => a - b);
}
