/**
 * Creating and changing user groups (spec 4.13; Zulip's create-user-group, update-user-group,
 * deactivate-user-group). Everyone in the realm hears of each change (user_group events).
 */
import { accessGroupForUpdate } from "../../access/user-groups.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { Membership } from "../../policy/group-settings.js";
import { USER_GROUP_SETTINGS, checkUserGroupName } from "../../policy/user-groups.js";
import { transaction, type Tx } from "../../store/db.js";
import { addGroupMembers, addSubgroups, getGroupSettingValues, getSystemGroupByName, insertGroup, updateGroup, type GroupSettingValue } from "../../store/groups.js";
import { insertAuditLog } from "../../store/realms.js";
import type { RealmRow, UserGroupRow, UserRow } from "../../store/types.js";
import { getNamedGroup, groupNameTaken } from "../../store/user-groups.js";
import { listActiveUserIds } from "../../store/users.js";
import { resolveGroupSetting } from "./group-settings.js";
import { checkNotGuest, checkActiveUserIds, checkSubgroupIds } from "./user-group-checks.js";
import { findGroupObjections } from "./user-group-objections.js";
import { presentGroups } from "./user-group-views.js";

/** The client capability under which deactivated groups stay in a client's list (FL 294). */
const INCLUDE_DEACTIVATED_GROUPS = "include_deactivated_groups";

/**
 * A user_group event to everyone in the realm. A deactivated group exists only for clients that
 * declared include_deactivated_groups (FL 294): its changes go to them alone; the others get
 * `remove` when it is deactivated and `add` (the whole group) when it is reactivated.
 */
export async function publishGroupEvent(deps: AppDeps, tx: Tx, realmId: number, event: { op: string } & Record<string, unknown>): Promise<void> {
  const audience = await listActiveUserIds(tx, realmId);
  const group = typeof event.group_id === "number" ? await getNamedGroup(tx, realmId, event.group_id) : undefined;
  const deactivation = (event.data as Record<string, unknown> | undefined)?.deactivated;
  const keepers = { only_with: INCLUDE_DEACTIVATED_GROUPS };
  const others = { only_without: INCLUDE_DEACTIVATED_GROUPS };
  if (group && (group.deactivated || deactivation !== undefined)) {
    publishOnCommit(tx, deps.events, { type: "user_group", ...event, ...keepers }, audience);
    if (deactivation === true) publishOnCommit(tx, deps.events, { type: "user_group", op: "remove", group_id: group.id, ...others }, audience);
    if (deactivation === false) {
      const [presented] = await presentGroups(tx, [group]);
      publishOnCommit(tx, deps.events, { type: "user_group", op: "add", group: presented, ...others }, audience);
    }
    return;
  }
  publishOnCommit(tx, deps.events, { type: "user_group", ...event }, audience);
}

export interface CreateGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[];
  settings: Record<string, GroupSettingValue | undefined>;
}

async function checkNameAvailable(tx: Tx, realm: RealmRow, raw: string): Promise<string> {
  const name = checkUserGroupName(raw);
  if (await groupNameTaken(tx, realm.id, name)) throw new ApiError(`User group '${name}' already exists.`);
  return name;
}

/** The group ids the new group's settings point at: given values, or Zulip's defaults. */
async function settingColumns(tx: Tx, realm: RealmRow, creator: UserRow, given: CreateGroupInput["settings"], now: number) {
  const columns: Partial<Record<(typeof USER_GROUP_SETTINGS)[number]["column"], number>> = {};
  for (const s of USER_GROUP_SETTINGS) {
    const value = given[s.name];
    if (value !== undefined) {
      columns[s.column] = await resolveGroupSetting(tx, realm, s.name, value, s.config, now);
    } else if (s.default === "creator") {
      const id = await insertGroup(tx, { realm_id: realm.id, name: null, date_created: now, creator_id: null });
      await addGroupMembers(tx, id, [creator.id]);
      columns[s.column] = id;
    } else {
      columns[s.column] = (await getSystemGroupByName(tx, realm.id, s.default)).id;
    }
  }
  return columns;
}

/** POST /user_groups/create: needs the realm's can_create_groups; returns the group id. */
export async function createUserGroup(deps: AppDeps, realm: RealmRow, actor: UserRow, input: CreateGroupInput): Promise<number> {
  checkNotGuest(actor);
  return transaction(deps.store, async (tx) => {
    const now = deps.clock.now();
    if (!(await Membership.load(tx, actor)).has(realm.can_create_groups_id, { allowEveryone: false })) {
      throw new ApiError("Insufficient permission");
    }
    const members = await checkActiveUserIds(tx, realm, input.members);
    const name = await checkNameAvailable(tx, realm, input.name);
    const subgroups = await checkSubgroupIds(tx, realm, input.subgroups ?? []);
    const columns = await settingColumns(tx, realm, actor, input.settings, now);
    const id = await insertGroup(tx, { realm_id: realm.id, name, description: input.description, date_created: now, creator_id: actor.id, ...columns });
    await addGroupMembers(tx, id, members);
    await addSubgroups(tx, id, subgroups);
    await insertAuditLog(tx, { realm_id: realm.id, event_type: "user_group_created", event_time: now, acting_user_id: actor.id, modified_group_id: id });
    const [group] = await presentGroups(tx, [(await getNamedGroup(tx, realm.id, id)) as UserGroupRow]);
    await publishGroupEvent(deps, tx, realm.id, { op: "add", group });
    return id;
  });
}

export interface SettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export interface UpdateGroupInput {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Record<string, SettingChange | undefined>;
}

/** A group-setting value in its one canonical form, so equal values compare equal. */
function canonical(value: GroupSettingValue): string {
  if (typeof value === "number") return String(value);
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return String(value.direct_subgroups[0]);
  const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
  return JSON.stringify({ direct_members: sorted(value.direct_members), direct_subgroups: sorted(value.direct_subgroups) });
}

/** PATCH /user_groups/{id}: name, description, reactivation and the group's settings ({new, old?}). */
export async function updateUserGroup(deps: AppDeps, realm: RealmRow, actor: UserRow, groupId: number, input: UpdateGroupInput): Promise<void> {
  checkNotGuest(actor);
  const settingNames = Object.keys(input.settings).filter((k) => input.settings[k] !== undefined);
  if (input.name === undefined && input.description === undefined && input.deactivated === undefined && settingNames.length === 0) {
    throw new ApiError("No new data supplied");
  }
  await transaction(deps.store, async (tx) => {
    const group = await accessGroupForUpdate(tx, realm, actor, groupId, ["can_manage_group"], { allowDeactivated: true });
    const data: Record<string, unknown> = {};
    const changes: Partial<UserGroupRow> = {};
    if (input.name !== undefined && input.name !== group.name) changes.name = data.name = await checkNameAvailable(tx, realm, input.name);
    if (input.description !== undefined && input.description !== group.description) changes.description = data.description = input.description;
    if (input.deactivated === false && group.deactivated) changes.deactivated = data.deactivated = false;
    const current = await getGroupSettingValues(tx, USER_GROUP_SETTINGS.map((s) => group[s.column]).filter((id): id is number => id !== null));
    for (const s of USER_GROUP_SETTINGS) {
      const change = input.settings[s.name];
      if (!change) continue;
      const now = current.get(group[s.column] as number) as GroupSettingValue;
      if (change.old !== undefined && canonical(change.old) !== canonical(now)) {
        throw new ApiError(`'${s.name}' value does not match the expected value.`, "EXPECTATION_MISMATCH");
      }
      if (canonical(change.new) === canonical(now)) continue;
      changes[s.column] = await resolveGroupSetting(tx, realm, s.name, change.new, s.config, deps.clock.now());
      data[s.name] = (await getGroupSettingValues(tx, [changes[s.column] as number])).get(changes[s.column] as number);
    }
    if (Object.keys(changes).length === 0) return;
    await updateGroup(tx, group.id, changes);
    await publishGroupEvent(deps, tx, realm.id, { op: "update", group_id: group.id, data });
  });
}

/** POST /user_groups/{id}/deactivate: refused while a setting or an active supergroup uses the group. */
export async function deactivateUserGroup(deps: AppDeps, realm: RealmRow, actor: UserRow, groupId: number): Promise<void> {
  checkNotGuest(actor);
  await transaction(deps.store, async (tx) => {
    const group = await accessGroupForUpdate(tx, realm, actor, groupId, ["can_manage_group"], { allowDeactivated: false });
    const objections = await findGroupObjections(tx, realm, group.id);
    if (objections.length > 0) {
      throw new ApiError("Cannot deactivate user group in use.", "CANNOT_DEACTIVATE_GROUP_IN_USE", 400, { objections });
    }
    await updateGroup(tx, group.id, { deactivated: true });
    await publishGroupEvent(deps, tx, realm.id, { op: "update", group_id: group.id, data: { deactivated: true } });
  });
}
