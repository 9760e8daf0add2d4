/**
 * realm_user and realm_bot events (Zulip's OpenAPI event shapes). Every active account that may
 * access a user hears about them (all of the realm unless can_access_all_users_group limits guests,
 * FL 228; Zulip's get_user_ids_who_can_access_user); delivery_email goes only to those who may see
 * it (policy/email-visibility). Bot details, API key included, go to the bot's owner and the
 * administrators.
 */
import { publishExportConsent } from "../realm-export/consent-events.js";
import { loadUserAccess, userIdsWhoCanAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { presentBot, presentInaccessibleUser, presentUser } from "../../present/present-user.js";
import { canSeeDeliveryEmail } from "../../policy/email-visibility.js";
import { BOT_TYPE, ROLE, isRealmAdmin } from "../../policy/roles.js";
import { getBotServices } from "../../store/bot-services.js";
import { getChannelsByIds } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getDirectGroupIds } from "../../store/groups.js";
import { getUserChannelSubscriptions } from "../../store/subscriptions.js";
import { getNamedGroupsByIds } from "../../store/user-groups.js";
import type { UserRow } from "../../store/types.js";
import { getUserById, listActiveAdminIds, listActiveUserIds, listActiveUsers } from "../../store/users.js";
import { channelAudiences } from "../channels/channel-audience.js";
import { publishGroupSettingsOfUser } from "../groups/group-setting-members-events.js";
import { publishGroupEvent } from "../groups/user-groups.js";
import { placeholderEmailDomain } from "./user-access-events.js";
import { splitByEmailAccess } from "./user-views.js";

/**
 * realm_user update with one changed property of `person` (always with user_id), to those who may
 * access them (or to `audience`, when the caller worked it out already).
 */
export async function publishUserUpdate(deps: AppDeps, tx: Tx, realmId: number, person: Record<string, unknown>, audience?: readonly number[]): Promise<void> {
  const target = audience ? undefined : await getUserById(tx, realmId, person.user_id as number);
  audience ??= target ? await userIdsWhoCanAccess(tx, target) : await listActiveUserIds(tx, realmId);
  publishOnCommit(tx, deps.events, { type: "realm_user", op: "update", person }, audience);
}

/** Who hears about a bot: its owner and the organization administrators. */
async function botAudience(tx: Tx, bot: UserRow): Promise<number[]> {
  const ids = new Set(await listActiveAdminIds(tx, bot.realm_id));
  if (bot.bot_owner_id !== null) ids.add(bot.bot_owner_id);
  return [...ids];
}

export async function presentBotWithChannels(tx: Tx, bot: UserRow, gravatar: boolean): Promise<Record<string, unknown>> {
  const ids = [bot.default_sending_channel_id, bot.default_events_register_channel_id].filter((id): id is number => id !== null);
  const channels = await getChannelsByIds(tx, bot.realm_id, ids);
  const nameOf = (id: number | null) => channels.find((c) => c.id === id)?.name ?? null;
  const presented = presentBot(bot, {
    defaultSendingStream: nameOf(bot.default_sending_channel_id),
    defaultEventsRegisterStream: nameOf(bot.default_events_register_channel_id),
  }, gravatar);
  // An outgoing-webhook bot's services (Zulip's get_service_dicts_for_bot): URL, payload format, token.
  if (bot.bot_type === BOT_TYPE.OUTGOING_WEBHOOK) {
    presented.services = (await getBotServices(tx, [bot.id])).map((s) => ({ base_url: s.base_url, interface: s.interface, token: s.token }));
  }
  return presented;
}

/**
 * user_group add_members / remove_members for the groups a user joined or left directly (Zulip
 * sends these for system groups on account creation and role changes, zulip-facts section g).
 */
export async function publishGroupMembershipChanges(deps: AppDeps, tx: Tx, user: UserRow, before: readonly number[], after: readonly number[]): Promise<void> {
  // Anonymous groups (group-setting values) are no client's group.
  const named = new Set((await getNamedGroupsByIds(tx, user.realm_id, [...before, ...after])).map((g) => g.id));
  for (const [groups, op] of [[before.filter((g) => !after.includes(g)), "remove_members"], [after.filter((g) => !before.includes(g)), "add_members"]] as const) {
    for (const groupId of groups.filter((g) => named.has(g)).sort((a, b) => a - b)) {
      await publishGroupEvent(deps, tx, user.realm_id, { op, group_id: groupId, user_ids: [user.id] });
    }
  }
}

/**
 * realm_user add (and realm_bot add for bots) for a new account, then its group memberships.
 * Guests who may not access the new user (Zulip's notify_created_user) get an "Unknown user"
 * placeholder, unless their client declared user_list_incomplete (FL 232): then nothing.
 */
export async function publishUserAdded(deps: AppDeps, tx: Tx, user: UserRow): Promise<void> {
  const accessing = new Set(await userIdsWhoCanAccess(tx, user));
  const everyone = await listActiveUsers(tx, user.realm_id);
  const { seeing, notSeeing } = splitByEmailAccess(user, everyone.filter((u) => accessing.has(u.id)));
  for (const [ids, viewerSeesEmail] of [[seeing, true], [notSeeing, false]] as const) {
    const person = presentUser(user, { gravatar: deps.config.enableGravatar, clientGravatar: false, viewerSeesEmail, profileData: {} });
    publishOnCommit(tx, deps.events, { type: "realm_user", op: "add", person }, ids);
  }
  const unknowing = everyone.filter((u) => !accessing.has(u.id)).map((u) => u.id);
  const placeholder = { type: "realm_user", op: "add", person: presentInaccessibleUser(user.id, await placeholderEmailDomain(tx, deps.config, user.realm_id)) };
  publishOnCommit(tx, deps.events, { ...placeholder, only_without: "user_list_incomplete" }, unknowing);
  // Ownerless bots are Parley's per-realm system bots (Notification Bot): nobody administers them.
  if (user.is_bot && user.bot_owner_id !== null) await publishBotAdded(deps, tx, user);
  await publishGroupMembershipChanges(deps, tx, user, [], await getDirectGroupIds(tx, user.id));
  await publishExportConsent(deps, tx, user);
}

export async function publishBotAdded(deps: AppDeps, tx: Tx, bot: UserRow): Promise<void> {
  publishOnCommit(tx, deps.events, { type: "realm_bot", op: "add", bot: await presentBotWithChannels(tx, bot, deps.config.enableGravatar) }, await botAudience(tx, bot));
}

/** realm_bot update with one changed property. */
export async function publishBotUpdate(deps: AppDeps, tx: Tx, bot: UserRow, changes: Record<string, unknown>): Promise<void> {
  publishOnCommit(tx, deps.events, { type: "realm_bot", op: "update", bot: { user_id: bot.id, ...changes } }, await botAudience(tx, bot));
}

export async function publishBotDeleted(deps: AppDeps, tx: Tx, bot: UserRow): Promise<void> {
  publishOnCommit(tx, deps.events, { type: "realm_bot", op: "delete", bot: { user_id: bot.id } }, await botAudience(tx, bot));
}

/**
 * After the real address or its visibility changed: each viewer whose view of delivery_email
 * differs from `before` gets realm_user update with the value they may now see (or null).
 */
export async function publishDeliveryEmailChanges(
  deps: AppDeps,
  tx: Tx,
  before: UserRow,
  after: UserRow,
): Promise<void> {
  const accessing = new Set(await userIdsWhoCanAccess(tx, after));
  const audience = (await listActiveUsers(tx, after.realm_id)).filter((u) => accessing.has(u.id));
  const was = new Set(splitByEmailAccess(before, audience).seeing);
  const now = splitByEmailAccess(after, audience);
  const addressChanged = before.delivery_email !== after.delivery_email;
  const gained = now.seeing.filter((id) => addressChanged || !was.has(id));
  const lost = now.notSeeing.filter((id) => was.has(id));
  publishOnCommit(tx, deps.events, { type: "realm_user", op: "update", person: { user_id: after.id, delivery_email: after.delivery_email } }, gained);
  publishOnCommit(tx, deps.events, { type: "realm_user", op: "update", person: { user_id: after.id, delivery_email: null } }, lost);
}

/**
 * After a viewer's role changed: the viewer gets realm_user update with delivery_email for every
 * account whose real address they may now see, and null for every one they no longer may.
 */
export async function publishViewerEmailAccessChanges(deps: AppDeps, tx: Tx, before: UserRow, after: UserRow): Promise<void> {
  const access = await loadUserAccess(tx, after);
  for (const other of await listActiveUsers(tx, after.realm_id)) {
    if (!access.canAccess(other)) continue;
    const could = canSeeDeliveryEmail(before, other);
    const can = canSeeDeliveryEmail(after, other);
    if (could === can) continue;
    const person = { user_id: other.id, delivery_email: can ? other.delivery_email : null };
    publishOnCommit(tx, deps.events, { type: "realm_user", op: "update", person }, [after.id]);
  }
}

/**
 * A bot's new owner (Zulip's do_change_bot_owner): the old owner loses the bot from realm_bots
 * unless an administrator, the new owner gains it unless one, and administrators see owner_id.
 */
export async function publishBotOwnerChange(deps: AppDeps, tx: Tx, bot: UserRow, owner: UserRow): Promise<void> {
  const admins = new Set(await listActiveAdminIds(tx, bot.realm_id));
  const moved = { ...bot, bot_owner_id: owner.id };
  if (bot.bot_owner_id !== null && !admins.has(bot.bot_owner_id)) {
    publishOnCommit(tx, deps.events, { type: "realm_bot", op: "delete", bot: { user_id: bot.id } }, [bot.bot_owner_id]);
  }
  if (!admins.has(owner.id)) {
    publishOnCommit(tx, deps.events, { type: "realm_bot", op: "add", bot: await presentBotWithChannels(tx, moved, deps.config.enableGravatar) }, [owner.id]);
  }
  publishOnCommit(tx, deps.events, { type: "realm_bot", op: "update", bot: { user_id: bot.id, owner_id: owner.id } }, [...admins]);
}

/** A user becoming or ceasing to be an administrator gains or loses the bots of others in realm_bots. */
export async function publishBotAccessForRole(deps: AppDeps, tx: Tx, user: UserRow, newRole: number): Promise<void> {
  const becomesAdmin = newRole <= ROLE.ADMINISTRATOR;
  if (isRealmAdmin(user) === becomesAdmin) return;
  const bots = (await listActiveUsers(tx, user.realm_id)).filter((u) => u.is_bot && u.bot_owner_id !== null && u.bot_owner_id !== user.id);
  for (const bot of bots) {
    const event = becomesAdmin ? { type: "realm_bot", op: "add", bot: await presentBotWithChannels(tx, bot, deps.config.enableGravatar) } : { type: "realm_bot", op: "delete", bot: { user_id: bot.id } };
    publishOnCommit(tx, deps.events, event, [user.id]);
  }
}

/**
 * A deactivated user leaves every group and subscriber list as far as clients know (FL 303, 377);
 * reactivation brings them back: user_group and peer events to everyone who sees each, then the
 * group-setting values that list them (group-setting-members-events.ts).
 */
export async function publishActivityChange(deps: AppDeps, tx: Tx, user: UserRow, active: boolean): Promise<void> {
  const groups = await getDirectGroupIds(tx, user.id);
  await publishGroupMembershipChanges(deps, tx, user, active ? [] : groups, active ? groups : []);
  const subscriptions = await getUserChannelSubscriptions(tx, user.id);
  const channels = await getChannelsByIds(tx, user.realm_id, subscriptions.map((s) => s.channel_id));
  const audiences = await channelAudiences(tx, user.realm_id, channels);
  for (const channel of channels) {
    const peers = [...(audiences.get(channel.id) ?? [])].filter((id) => id !== user.id);
    const event = { type: "subscription", op: active ? "peer_add" : "peer_remove", stream_ids: [channel.id], user_ids: [user.id] };
    publishOnCommit(tx, deps.events, event, peers);
  }
  await publishGroupSettingsOfUser(deps, tx, user);
  if (active) await publishExportConsent(deps, tx, user);
}
