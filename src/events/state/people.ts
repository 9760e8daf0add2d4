/** `realm_user`, `realm_bot` and `realm_user_groups` sections of POST /register. */
import { groupBy } from "../../lib/group-by.js";
import { presentUser, type PresentableUser } from "../../lib/present-user.js";
import { canSeeDeliveryEmail } from "../../policy/email-visibility.js";
import { ROLE, isRealmAdmin } from "../../policy/roles.js";
import { presentBotWithChannels } from "../../actions/user-events.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues } from "../../store/groups.js";
import { getAllMemberships, getNamedGroups, getRealmProfileValues } from "../../store/state.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listActiveBots, listUsersToPresent } from "../../store/users.js";

export interface PeopleOptions {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
  /** Omit avatar_url where it can be computed (user_avatar_url_field_optional capability). */
  avatarUrlOptional: boolean;
}

/**
 * User objects built from the realm's cached user rows (realm-lists.ts), per row and presentation
 * variant: while the rows are current, a register reuses the objects the last one built (5,000 of
 * them at the benchmark's size) instead of building them again. They are shared, so never changed.
 */
const presentedUsers = new WeakMap<object, Map<string, Readonly<Record<string, unknown>>>>();

function presentedUser(u: Readonly<PresentableUser & Pick<UserRow, "settings">>, opts: PeopleOptions, viewerSeesEmail: boolean) {
  const variant = `${opts.clientGravatar}:${opts.avatarUrlOptional}:${viewerSeesEmail}`;
  let variants = presentedUsers.get(u);
  if (!variants) {
    variants = new Map();
    presentedUsers.set(u, variants);
  }
  let p = variants.get(variant);
  if (!p) {
    const built = presentUser(u, { clientGravatar: opts.clientGravatar, viewerSeesEmail });
    if (opts.avatarUrlOptional && built.avatar_url !== null) delete built.avatar_url;
    p = built;
    variants.set(variant, p);
  }
  return p;
}

export async function realmUserState(tx: Tx, realm: RealmRow, me: UserRow, opts: PeopleOptions): Promise<Record<string, unknown>> {
  const users = await listUsersToPresent(tx, realm.id);
  const values = opts.includeCustomProfileFields ? await getRealmProfileValues(tx, realm.id) : [];
  const profileBy = new Map<number, Record<string, unknown>>();
  for (const v of values) {
    const entry = profileBy.get(v.user_id) ?? {};
    entry[String(v.field_id)] = v.rendered_value === null ? { value: v.value } : { value: v.value, rendered_value: v.rendered_value };
    profileBy.set(v.user_id, entry);
  }
  const present = (u: Readonly<PresentableUser & Pick<UserRow, "settings">>) => {
    const p = presentedUser(u, opts, canSeeDeliveryEmail(me, u));
    return opts.includeCustomProfileFields && !u.is_bot ? { ...p, profile_data: profileBy.get(u.id) ?? {} } : p;
  };
  const mine = presentUser(me, { clientGravatar: false, viewerSeesEmail: true });
  return {
    realm_users: users.filter((u) => u.is_active).map(present),
    realm_non_active_users: users.filter((u) => !u.is_active).map(present),
    cross_realm_bots: [],
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    avatar_source: me.avatar_source,
    avatar_url: mine.avatar_url,
    avatar_url_medium: mine.avatar_url,
    is_admin: me.role <= ROLE.ADMINISTRATOR,
    is_owner: me.role === ROLE.OWNER,
    is_moderator: me.role <= ROLE.MODERATOR,
    is_guest: me.role === ROLE.GUEST,
    is_billing_admin: me.is_billing_admin,
    role: me.role,
  };
}

/**
 * The bots the user can administer: every owned bot for administrators, their own otherwise
 * (OpenAPI realm_bots). Active ones only: deactivating a bot sends realm_bot delete. Ownerless
 * bots are Parley's system bots (Notification Bot), which nobody administers.
 */
export async function realmBotsState(tx: Tx, realm: RealmRow, me: UserRow): Promise<Record<string, unknown>> {
  const bots = (await listActiveBots(tx, realm.id)).filter((u) => u.bot_owner_id !== null && (isRealmAdmin(me) || u.bot_owner_id === me.id));
  const realm_bots = [];
  for (const bot of bots) realm_bots.push(await presentBotWithChannels(tx, bot));
  return { realm_bots };
}

/** Deactivated groups only for clients that declared include_deactivated_groups (FL 294). */
export async function userGroupsState(tx: Tx, realm: RealmRow, opts: { includeDeactivated: boolean }): Promise<Record<string, unknown>> {
  const groups = (await getNamedGroups(tx, realm.id)).filter((g) => opts.includeDeactivated || !g.deactivated);
  const { members, subgroups } = await getAllMemberships(tx, realm.id);
  const settingIds = groups.flatMap((g) => [
    g.can_add_members_group_id, g.can_join_group_id, g.can_leave_group_id,
    g.can_manage_group_id, g.can_mention_group_id, g.can_remove_members_group_id,
  ]).filter((id): id is number => id !== null);
  const values = await getGroupSettingValues(tx, settingIds);
  const value = (id: number | null) => (id === null ? null : (values.get(id) ?? id));
  // Grouped once: filtering every membership per group was groups × memberships (10,000 members
  // of the role groups at 5,000 users).
  const membersOf = groupBy(members, (m) => m.group_id, (m) => m.user_id);
  const subgroupsOf = groupBy(subgroups, (sg) => sg.supergroup_id, (sg) => sg.subgroup_id);
  return {
    realm_user_groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      description: g.description,
      members: membersOf.get(g.id) ?? [],
      direct_subgroup_ids: subgroupsOf.get(g.id) ?? [],
      is_system_group: g.is_system_group,
      deactivated: g.deactivated,
      date_created: g.date_created,
      creator_id: g.creator_id,
      can_add_members_group: value(g.can_add_members_group_id),
      can_join_group: value(g.can_join_group_id),
      can_leave_group: value(g.can_leave_group_id),
      can_manage_group: value(g.can_manage_group_id),
      can_mention_group: value(g.can_mention_group_id),
      can_remove_members_group: value(g.can_remove_members_group_id),
    })),
  };
}
