/** User-group endpoints (spec 4.13, 4.20; Zulip's user_groups operations). */
import { groupSettingValue } from "../actions/groups/group-settings.js";
import { updateGroupMembership, updateGroupSubgroups } from "../actions/groups/user-group-members.js";
import { groupMemberIds, groupSubgroupIds, isGroupMember, listGroupsFor } from "../actions/groups/user-group-views.js";
import { createUserGroup, deactivateUserGroup, updateUserGroup, type SettingChange } from "../actions/groups/user-groups.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { USER_GROUP_SETTINGS } from "../policy/user-groups.js";
import { readTx } from "../store/db.js";
import type { GroupSettingValue } from "../store/groups.js";

const settingChange: v.Validator<SettingChange> = v.object({
  new: v.field(groupSettingValue),
  old: v.optionalField(groupSettingValue),
}) as v.Validator<SettingChange>;

const createSettings = Object.fromEntries(USER_GROUP_SETTINGS.map((s) => [s.name, p.json(groupSettingValue).optional()]));
const updateSettings = Object.fromEntries(USER_GROUP_SETTINGS.map((s) => [s.name, p.json(settingChange).optional()]));

function pick<T>(params: Record<string, unknown>): Record<string, T | undefined> {
  return Object.fromEntries(USER_GROUP_SETTINGS.map((s) => [s.name, params[s.name] as T | undefined]));
}

export const createGroup = endpoint({
  method: "POST",
  path: "/user_groups/create",
  auth: "user",
  params: { name: p.str(), description: p.str(), members: p.intList(), subgroups: p.intList().optional(), ...createSettings },
  async handler(ctx, params) {
    const groupId = await createUserGroup(ctx.deps, ctx.realm, ctx.user, {
      name: params.name,
      description: params.description,
      members: params.members,
      subgroups: params.subgroups,
      settings: pick<GroupSettingValue>(params),
    });
    return { group_id: groupId };
  },
});

export const getGroups = endpoint({
  method: "GET",
  path: "/user_groups",
  auth: "user",
  params: { include_deactivated_groups: p.bool().default(false) },
  async handler(ctx, params) {
    return { user_groups: await listGroupsFor(readTx(ctx.deps.store), ctx.realm, ctx.user, params.include_deactivated_groups) };
  },
});

export const updateGroup = endpoint({
  method: "PATCH",
  path: "/user_groups/:user_group_id",
  auth: "user",
  params: {
    user_group_id: p.int().path(),
    name: p.str().optional(),
    description: p.str().optional(),
    deactivated: p.bool().optional(),
    ...updateSettings,
  },
  async handler(ctx, params) {
    await updateUserGroup(ctx.deps, ctx.realm, ctx.user, params.user_group_id, {
      name: params.name,
      description: params.description,
      deactivated: params.deactivated,
      settings: pick<SettingChange>(params),
    });
  },
});

export const deactivateGroup = endpoint({
  method: "POST",
  path: "/user_groups/:user_group_id/deactivate",
  auth: "user",
  params: { user_group_id: p.int().path() },
  async handler(ctx, { user_group_id }) {
    await deactivateUserGroup(ctx.deps, ctx.realm, ctx.user, user_group_id);
  },
});

export const updateMembers = endpoint({
  method: "POST",
  path: "/user_groups/:user_group_id/members",
  auth: "user",
  params: {
    user_group_id: p.int().path(),
    add: p.intList().optional(),
    delete: p.intList().optional(),
    add_subgroups: p.intList().optional(),
    delete_subgroups: p.intList().optional(),
  },
  async handler(ctx, params) {
    await updateGroupMembership(ctx.deps, ctx.realm, ctx.user, params.user_group_id, {
      add: params.add,
      delete: params.delete,
      addSubgroups: params.add_subgroups,
      deleteSubgroups: params.delete_subgroups,
    });
  },
});

export const updateSubgroups = endpoint({
  method: "POST",
  path: "/user_groups/:user_group_id/subgroups",
  auth: "user",
  params: { user_group_id: p.int().path(), add: p.intList().default([]), delete: p.intList().default([]) },
  async handler(ctx, params) {
    await updateGroupSubgroups(ctx.deps, ctx.realm, ctx.user, params.user_group_id, params.add, params.delete);
  },
});

export const getMembers = endpoint({
  method: "GET",
  path: "/user_groups/:user_group_id/members",
  auth: "user",
  params: { user_group_id: p.int().path(), direct_member_only: p.bool().default(false) },
  async handler(ctx, params) {
    return { members: await groupMemberIds(readTx(ctx.deps.store), ctx.realm, ctx.user, params.user_group_id, params.direct_member_only) };
  },
});

export const getIsMember = endpoint({
  method: "GET",
  path: "/user_groups/:user_group_id/members/:user_id",
  auth: "user",
  params: { user_group_id: p.int().path(), user_id: p.int().path(), direct_member_only: p.bool().default(false) },
  async handler(ctx, params) {
    const tx = readTx(ctx.deps.store);
    return { is_user_group_member: await isGroupMember(tx, ctx.realm, ctx.user, params.user_group_id, params.user_id, params.direct_member_only) };
  },
});

export const getSubgroups = endpoint({
  method: "GET",
  path: "/user_groups/:user_group_id/subgroups",
  auth: "user",
  params: { user_group_id: p.int().path(), direct_subgroup_only: p.bool().default(false) },
  async handler(ctx, params) {
    return { subgroups: await groupSubgroupIds(readTx(ctx.deps.store), ctx.realm, ctx.user, params.user_group_id, params.direct_subgroup_only) };
  },
});

export const userGroupEndpoints = [createGroup, getGroups, updateGroup, deactivateGroup, updateMembers, updateSubgroups, getMembers, getIsMember, getSubgroups];
