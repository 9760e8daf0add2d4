/** `realm_user`, `realm_bot` and `realm_user_groups` sections of POST /register. */
import { groupBy } from "../../lib/group-by.js";
import { JsonText } from "../../lib/json-text.js";
import { fullAvatarUrl } from "../../lib/avatar-urls.js";
import { presentInaccessibleUser, presentUser } from "../../present/present-user.js";
import type { PresentableUser } from "../../store/users.js";
import { Membership } from "../../policy/group-settings.js";
import { canSeeDeliveryEmail } from "../../policy/email-visibility.js";
import { ROLE, isRealmAdmin } from "../../policy/roles.js";
import { presentBotWithChannels } from "../../actions/users/user-events.js";
import type { UserAccess } from "../../access/users.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues } from "../../store/groups.js";
import { getAllMemberships, getNamedGroups, getRealmProfileValues } from "../../store/state.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listActiveBots, listUsersToPresent } from "../../store/users.js";

/**
 * avatar_url is always sent: user_avatar_url_field_optional (FL 18) lets the server leave it out
 * at its discretion (Zulip does for long-idle users), and Parley has no reason to.
 */
export interface PeopleOptions {
  /** Zulip's ENABLE_GRAVATAR (config.enableGravatar). */
  gravatar: boolean;
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
  /** Whom the viewer may access (can_access_all_users_group). */
  access: UserAccess;
  /** The client declared user_list_incomplete (FL 232): no placeholders for inaccessible users. */
  userListIncomplete: boolean;
  /** Domain of placeholder addresses (policy/email-visibility fakeEmailDomain). */
  emailDomain: string;
}

/**
 * User objects built from the realm's cached user rows (realm-lists.ts), per row and presentation
 * variant: while the rows are current, a register reuses the objects the last one built (5,000 of
 * them at the benchmark's size) instead of building them again. They are shared, so never changed.
 */
const presentedUsers = new WeakMap<object, Map<string, Readonly<Record<string, unknown>>>>();

function presentedUser(u: Readonly<PresentableUser & Pick<UserRow, "settings">>, opts: PeopleOptions, viewerSeesEmail: boolean) {
  const variant = `${opts.gravatar}:${opts.clientGravatar}:${viewerSeesEmail}`;
  let variants = presentedUsers.get(u);
  if (!variants) {
    variants = new Map();
    presentedUsers.set(u, variants);
  }
  let p = variants.get(variant);
  if (!p) {
    p = presentUser(u, { gravatar: opts.gravatar, clientGravatar: opts.clientGravatar, viewerSeesEmail });
    variants.set(variant, p);
  }
  return p;
}

type ListedUser = Readonly<PresentableUser & Pick<UserRow, "settings">>;
type ProfileValues = Awaited<ReturnType<typeof getRealmProfileValues>>;

/** One list's JSON text, with the rows it was built from and where each one's object lies in it. */
interface UserListJson {
  text: string;
  rows: readonly ListedUser[];
  starts: number[];
  ends: number[];
}

function userListJson(users: readonly ListedUser[], toJson: (u: ListedUser) => string): UserListJson {
  const list: UserListJson = { text: "", rows: users, starts: [], ends: [] };
  const parts: string[] = [];
  let at = 1;
  for (const u of users) {
    const json = toJson(u);
    list.starts.push(at);
    list.ends.push(at + json.length);
    parts.push(json);
    at += json.length + 1;
  }
  list.text = `[${parts.join(",")}]`;
  return list;
}

/**
 * The realm_users and realm_non_active_users lists as JSON, per list of user rows (realm-lists.ts
 * gives a new one whenever a user or a profile value of the realm changes), per presentation
 * variant and per viewer role: who may see a real email depends on the viewer's role only, except
 * for the viewer's own object, which realmUserState puts in separately. At 5,000 users, building
 * and serialising the two lists was a third of a register (issue 8, S8). Texts exist only for the
 * variants and roles that registered since the list last changed, and go with the list.
 */
const userListsJson = new WeakMap<object, Map<string, { profiles: ProfileValues; active: UserListJson; inactive: UserListJson }>>();

export async function realmUserState(tx: Tx, realm: RealmRow, me: UserRow, opts: PeopleOptions): Promise<Record<string, unknown>> {
  const users = await listUsersToPresent(tx, realm.id);
  const profiles = opts.includeCustomProfileFields ? await getRealmProfileValues(tx, realm.id) : NO_PROFILES;
  const variant = `${opts.gravatar}:${opts.clientGravatar}:${opts.includeCustomProfileFields}:${me.role}`;
  let variants = userListsJson.get(users);
  if (!variants) {
    variants = new Map();
    userListsJson.set(users, variants);
  }
  // A viewer of this role who is none of the users (ids are positive).
  const roleViewer = { id: -1, role: me.role };
  let lists = variants.get(variant);
  if (lists?.profiles !== profiles) {
    const toJson = userJson(profiles, opts, (u) => canSeeDeliveryEmail(roleViewer, u));
    lists = { profiles, active: userListJson(users.filter((u) => u.is_active), toJson), inactive: userListJson(users.filter((u) => !u.is_active), toJson) };
    variants.set(variant, lists);
  }
  const own = lists.active.rows.findIndex((u) => u.id === me.id);
  const ownRow = lists.active.rows[own];
  // The viewer always sees their own email; spliced into the cached text without copying it.
  const ownJson = ownRow && !canSeeDeliveryEmail(roleViewer, ownRow) ? userJson(profiles.filter((v) => v.user_id === me.id), opts, () => true)(ownRow) : null;
  let realmUsers = lists.active.text;
  let nonActive = lists.inactive.text;
  if (opts.access.accessible !== null) {
    ({ realmUsers, nonActive } = limitedUserLists(lists, opts, ownJson));
  } else if (ownJson !== null) {
    realmUsers = realmUsers.slice(0, lists.active.starts[own]) + ownJson + realmUsers.slice(lists.active.ends[own]);
  }
  return {
    realm_users: new JsonText(realmUsers),
    realm_non_active_users: new JsonText(nonActive),
    cross_realm_bots: [],
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    // The viewer's own avatar is never left for the client to compute (Zulip forces client_gravatar off).
    avatar_source: me.avatar_source,
    avatar_url: fullAvatarUrl(me, opts.gravatar),
    avatar_url_medium: fullAvatarUrl(me, opts.gravatar, true),
    ...(await ownPermissionsState(tx, realm, me)),
    is_admin: me.role <= ROLE.ADMINISTRATOR,
    is_owner: me.role === ROLE.OWNER,
    is_moderator: me.role <= ROLE.MODERATOR,
    is_guest: me.role === ROLE.GUEST,
  };
}

/** An id no placeholder text contains otherwise (see limitedUserLists). */
const SAMPLE_ID = 987654321;

/**
 * The two lists for a guest limited by can_access_all_users_group (Zulip's get_users_for_api):
 * the users they may access, cut out of the role's cached texts, and, in user-id order among
 * them, an "Unknown user" placeholder for each other user, or nothing for a client that declared
 * user_list_incomplete (FL 232). A placeholder is always active, so an inaccessible deactivated
 * user is one more unknown active user, as in Zulip.
 */
function limitedUserLists(lists: { active: UserListJson; inactive: UserListJson }, opts: PeopleOptions, ownJson: string | null) {
  const active: string[] = [];
  const inactive: string[] = [];
  // Placeholders differ only in the id (twice: user_id and the address), so one text is cut once.
  const parts = JSON.stringify(presentInaccessibleUser(SAMPLE_ID, opts.emailDomain)).split(String(SAMPLE_ID));
  const placeholder = (id: number) => parts.join(String(id));
  // Both cached lists are in user-id order: walk them together.
  let a = 0;
  let i = 0;
  const { active: act, inactive: ina } = lists;
  while (a < act.rows.length || i < ina.rows.length) {
    const fromActive = i >= ina.rows.length || (a < act.rows.length && act.rows[a].id < ina.rows[i].id);
    const list = fromActive ? act : ina;
    const at = fromActive ? a++ : i++;
    const row = list.rows[at];
    if (opts.access.canAccess(row)) {
      const json = row.id === opts.access.viewerId && ownJson !== null ? ownJson : list.text.slice(list.starts[at], list.ends[at]);
      (row.is_active ? active : inactive).push(json);
    } else if (!opts.userListIncomplete) {
      active.push(placeholder(row.id));
    }
  }
  return { realmUsers: `[${active.join(",")}]`, nonActive: `[${inactive.join(",")}]` };
}

/**
 * What the viewer may do, from the realm's group settings (Zulip's register answers these under
 * realm_user): create each kind of channel (can_create_streams, deprecated at FL 102, is any of
 * them) and invite. Checked as the actions check them, so guests never pass settings that do not
 * allow role:everyone.
 */
async function ownPermissionsState(tx: Tx, realm: RealmRow, me: UserRow): Promise<Record<string, boolean>> {
  const membership = await Membership.load(tx, me);
  const has = (groupId: number | null) => membership.has(groupId, { allowEveryone: false });
  const state = {
    can_create_public_streams: has(realm.can_create_public_channel_group_id),
    can_create_private_streams: has(realm.can_create_private_channel_group_id),
    can_create_web_public_streams: has(realm.can_create_web_public_channel_group_id),
  };
  return {
    ...state,
    can_create_streams: state.can_create_public_streams || state.can_create_private_streams || state.can_create_web_public_streams,
    can_invite_others_to_realm: !me.is_bot && has(realm.can_invite_users_group_id),
  };
}

const NO_PROFILES: ProfileValues = [];

/** A user object's JSON, with profile_data for humans when the caller asked for profile fields. */
function userJson(profiles: ProfileValues, opts: PeopleOptions, seesEmail: (u: ListedUser) => boolean): (u: ListedUser) => string {
  const profileBy = new Map<number, Record<string, unknown>>();
  for (const v of profiles) {
    const entry = profileBy.get(v.user_id) ?? {};
    entry[String(v.field_id)] = v.rendered_value === null ? { value: v.value } : { value: v.value, rendered_value: v.rendered_value };
    profileBy.set(v.user_id, entry);
  }
  return (u) => {
    const p = presentedUser(u, opts, seesEmail(u));
    return JSON.stringify(opts.includeCustomProfileFields && !u.is_bot ? { ...p, profile_data: profileBy.get(u.id) ?? {} } : p);
  };
}

/**
 * The bots the user can administer: every owned bot for administrators, their own otherwise
 * (OpenAPI realm_bots). Active ones only: deactivating a bot sends realm_bot delete. Ownerless
 * bots are Parley's system bots (Notification Bot), which nobody administers.
 */
export async function realmBotsState(tx: Tx, realm: RealmRow, me: UserRow, gravatar: boolean): Promise<Record<string, unknown>> {
  const bots = (await listActiveBots(tx, realm.id)).filter((u) => u.bot_owner_id !== null && (isRealmAdmin(me) || u.bot_owner_id === me.id));
  const realm_bots = [];
  for (const bot of bots) realm_bots.push(await presentBotWithChannels(tx, bot, gravatar));
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
