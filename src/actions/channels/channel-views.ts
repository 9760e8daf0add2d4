/**
 * Reads that present channels and subscriptions: GET /streams (Zulip's get_streams_for_user
 * filters), GET /streams/{id}, its members, GET /users/me/subscriptions, a user's subscription
 * status and channels, and the objects that channel and subscription events carry.
 */
import { accessChannelById } from "../../access/channels.js";
import type { ChatEvent } from "../../events/bus.js";
import { accessUserById } from "../../access/users.js";
import { ApiError } from "../../errors.js";
import { channelGroupIds, presentChannel, presentSubscription } from "../../present/present-channel.js";
import { Membership } from "../../policy/group-settings.js";
import { canReadChannel, canSeeChannelMetadata } from "../../policy/channels.js";
import { isGuest, isRealmAdmin } from "../../policy/roles.js";
import { getChannelsByIds, getDefaultChannelIds, listChannels } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getWeeklyTraffic } from "../../store/channel-traffic.js";
import { getGroupSettingValues, getSystemGroups } from "../../store/groups.js";
import { getSubscribedChannelIds, getSubscriberIds, getSubscriberIdsByRecipient, getUserChannelSubscriptions, isSubscribed } from "../../store/subscriptions.js";
import type { ChannelRow, SubscriptionRow, UserRow } from "../../store/types.js";

/**
 * A `stream` delete for channels a user can no longer see. Since FL 343 the deprecated `streams`
 * list carries only each channel's id; `stream_ids` is the modern form (OpenAPI get-events).
 */
export function channelDeleteEvent(ids: readonly number[]): ChatEvent {
  return { type: "stream", op: "delete", streams: ids.map((stream_id) => ({ stream_id })), stream_ids: [...ids] };
}

export interface ChannelPresenter {
  channel(channel: ChannelRow, opts?: { includeDefault?: boolean }): Record<string, unknown>;
  subscription(sub: SubscriptionRow, channel: ChannelRow, opts?: { includeSubscribers?: boolean }): Record<string, unknown>;
  subscribers(channel: ChannelRow): number[];
}

/** Loads, in a few queries, everything needed to present these channels. */
export async function channelPresenter(tx: Tx, realmId: number, channels: readonly ChannelRow[], now: number): Promise<ChannelPresenter> {
  const [groupValues, systemGroups, subscribers, defaults, traffic] = await Promise.all([
    getGroupSettingValues(tx, channels.flatMap(channelGroupIds)),
    getSystemGroups(tx, realmId),
    getSubscriberIdsByRecipient(tx, channels.map((c) => c.recipient_id as number)),
    getDefaultChannelIds(tx, realmId),
    getWeeklyTraffic(tx, channels, now),
  ]);
  const systemGroupNames = new Map(systemGroups.map((g) => [g.id, g.name as string]));
  const defaultIds = new Set(defaults);
  const subscribersOf = (c: ChannelRow) => subscribers.get(c.recipient_id as number) ?? [];
  const channel = (c: ChannelRow, opts: { includeDefault?: boolean } = {}) =>
    presentChannel(c, {
      groupValues,
      systemGroupNames,
      subscriberCount: subscribersOf(c).length,
      weeklyTraffic: traffic.get(c.id) ?? null,
      isDefault: opts.includeDefault ? defaultIds.has(c.id) : undefined,
    });
  return {
    channel,
    subscribers: subscribersOf,
    subscription: (sub, c, opts = {}) => presentSubscription(sub, channel(c), opts.includeSubscribers ? subscribersOf(c) : undefined),
  };
}

/** GET /streams/{stream_id}: any channel whose metadata the user may see, archived ones included. */
export async function getChannelObject(tx: Tx, user: UserRow, channelId: number, now: number): Promise<Record<string, unknown>> {
  const { channel } = await accessChannelById(tx, user, channelId);
  return (await channelPresenter(tx, user.realm_id, [channel], now)).channel(channel);
}

export interface ChannelListFilters {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  /** The pre-FL-356 name of include_all, which Zulip still keeps to administrators. */
  includeAllActive: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

/** GET /streams: the union of the requested sources, sorted by name. */
export async function listChannelObjects(tx: Tx, user: UserRow, f: ChannelListFilters, now: number): Promise<Array<Record<string, unknown>>> {
  // Zulip's get_streams_for_user (OpenAPI get-streams: "must have administrative privileges").
  if (f.includeAllActive && !isRealmAdmin(user)) throw new ApiError("User not authorized for this query");
  const includeAll = f.includeAll || f.includeAllActive;
  const all = await listChannels(tx, user.realm_id, { includeArchived: !f.excludeArchived });
  const membership = await Membership.load(tx, user);
  const subscribed = new Set(await getSubscribedChannelIds(tx, user.id));
  const viewer = (c: ChannelRow) => ({ membership, subscribed: subscribed.has(c.id) });
  const ownerSubscribed =
    f.includeOwnerSubscribed && user.is_bot && user.bot_owner_id !== null ? new Set(await getSubscribedChannelIds(tx, user.bot_owner_id)) : new Set<number>();
  const wanted = all.filter((c) => {
    if (ownerSubscribed.has(c.id)) return true;
    if (includeAll) return canSeeChannelMetadata(viewer(c), c);
    if (f.includeCanAccessContent) return canReadChannel(viewer(c), c);
    if (f.includeSubscribed && subscribed.has(c.id)) return true;
    if (f.includePublic && !isGuest(user) && !c.invite_only) return true;
    return f.includeWebPublic && c.is_web_public;
  });
  wanted.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const presenter = await channelPresenter(tx, user.realm_id, wanted, now);
  return wanted.map((c) => presenter.channel(c, { includeDefault: f.includeDefault }));
}

/** GET /users/me/subscriptions: the user's active subscriptions to unarchived channels. */
export async function listSubscriptionObjects(tx: Tx, user: UserRow, includeSubscribers: boolean, now: number): Promise<Array<Record<string, unknown>>> {
  const subs = await getUserChannelSubscriptions(tx, user.id);
  const channels = (await getChannelsByIds(tx, user.realm_id, subs.map((s) => s.channel_id))).filter((c) => !c.deactivated);
  channels.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const presenter = await channelPresenter(tx, user.realm_id, channels, now);
  const subByChannel = new Map(subs.map((s) => [s.channel_id, s]));
  return channels.map((c) => presenter.subscription(subByChannel.get(c.id) as SubscriptionRow, c, { includeSubscribers }));
}

/** GET /streams/{stream_id}/members: subscribers of a channel the user may see, archived ones too (FL 480). */
export async function getChannelSubscriberIds(tx: Tx, user: UserRow, channelId: number): Promise<number[]> {
  const { channel } = await accessChannelById(tx, user, channelId);
  return getSubscriberIds(tx, channel.recipient_id as number);
}

/** GET /users/{user_id}/subscriptions/{stream_id}. */
export async function getSubscriptionStatus(tx: Tx, user: UserRow, targetId: number, channelId: number): Promise<boolean> {
  const target = await accessUserById(tx, user, targetId, { allowBots: true, allowDeactivated: true, forAdmin: false });
  const { channel } = await accessChannelById(tx, user, channelId);
  return isSubscribed(tx, target.id, channel.recipient_id as number);
}

/**
 * GET /users/{user_id}/channels (Zulip's get-user-channels, FL 440): the ids of the unarchived
 * channels the target is subscribed to, limited to those whose metadata the caller may see (all of
 * them for administrators), ascending.
 */
export async function getUserChannelIds(tx: Tx, user: UserRow, targetId: number): Promise<number[]> {
  const target = await accessUserById(tx, user, targetId, { allowBots: true, allowDeactivated: true, forAdmin: false });
  const theirs = await getUserChannelSubscriptions(tx, target.id);
  const channels = (await getChannelsByIds(tx, user.realm_id, theirs.map((s) => s.channel_id))).filter((c) => !c.deactivated);
  const membership = await Membership.load(tx, user);
  const mine = new Set(await getSubscribedChannelIds(tx, user.id));
  return channels
    .filter((c) => canSeeChannelMetadata({ membership, subscribed: mine.has(c.id) }, c))
    .map((c) => c.id)
    .sort((a, b) => a - b);
}
