/**
 * Channel sections of POST /register: `subscription` (subscriptions, unsubscribed,
 * never_subscribed), `stream` (every channel the user may see) and `default_streams`.
 */
import { channelGroupIds, presentChannel, presentSubscription } from "../../present/present-channel.js";
import { canSeeChannelMetadata } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { isGuest } from "../../policy/roles.js";
import { getWeeklyTraffic } from "../../store/channel-traffic.js";
import { getDefaultChannelIds, listChannels } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues, getSystemGroups } from "../../store/groups.js";
import { getAllChannelSubscriptions, getRealmChannelSubscriberCounts, getRealmChannelSubscribers } from "../../store/state.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";

/**
 * Everything needed to present the channels a user may see, loaded with a fixed number of queries.
 * Register loads it once for both the `subscription` and the `stream` sections (index.ts). The
 * subscriber lists are loaded only when asked for; otherwise only their counts (500 rows rather
 * than every subscription of the realm).
 */
export async function loadVisibleChannels(tx: Tx, realm: RealmRow, user: UserRow, includeSubscribers: boolean, now: number) {
  const [channels, subs, membership, systemGroups, allSubscribers, storedCounts] = await Promise.all([
    listChannels(tx, realm.id, { includeArchived: true }),
    getAllChannelSubscriptions(tx, user.id),
    Membership.load(tx, user),
    getSystemGroups(tx, realm.id),
    includeSubscribers ? getRealmChannelSubscribers(tx, realm.id) : [],
    includeSubscribers ? null : getRealmChannelSubscriberCounts(tx, realm.id),
  ]);
  const subscribed = new Set(subs.filter((s) => s.active).map((s) => s.channel_id));
  const visible = channels.filter((c) => canSeeChannelMetadata({ membership, subscribed: subscribed.has(c.id) }, c));
  const [groupValues, traffic] = await Promise.all([getGroupSettingValues(tx, visible.flatMap(channelGroupIds)), getWeeklyTraffic(tx, visible, now)]);
  const systemGroupNames = new Map(systemGroups.map((g) => [g.id, g.name as string]));
  const subscribersOf = new Map<number, number[]>();
  for (const s of allSubscribers) {
    const list = subscribersOf.get(s.channel_id);
    if (list) list.push(s.user_id);
    else subscribersOf.set(s.channel_id, [s.user_id]);
  }
  const counts = storedCounts ?? new Map([...subscribersOf].map(([id, list]) => [id, list.length]));
  // No is_default: register's channel objects leave it out (only GET /streams include_default has
  // it), and no event would keep it current.
  const present = (c: ChannelRow) =>
    presentChannel(c, { groupValues, systemGroupNames, subscriberCount: counts.get(c.id) ?? 0, weeklyTraffic: traffic.get(c.id) ?? null });
  return { visible, subs, subscribersOf, present };
}

/** Archived channels are listed only for clients that declared archived_channels (FL 315, 362, 378). */
export interface ChannelStateOptions {
  archivedChannels: boolean;
}

/** The subscription settings where null means "follow the user's setting", each with that setting. */
const INHERITED_NOTIFICATION_SETTINGS = [
  ["desktop_notifications", "enable_stream_desktop_notifications"],
  ["audible_notifications", "enable_stream_audible_notifications"],
  ["push_notifications", "enable_stream_push_notifications"],
  ["email_notifications", "enable_stream_email_notifications"],
] as const;

/**
 * For clients without the notification_settings_null capability (Zulip 2.1), which expect
 * booleans: a null channel notification setting becomes the user's global value. Zulip does this
 * for register's subscriptions and unsubscribed only (post_process_state), for these four settings
 * (not wildcard_mentions_notify, which never predated null), and never in events.
 */
function withInheritedNotificationSettings(subscription: Record<string, unknown>, userSettings: Readonly<Record<string, unknown>>): Record<string, unknown> {
  for (const [setting, global] of INHERITED_NOTIFICATION_SETTINGS) {
    if (subscription[setting] === null) subscription[setting] = userSettings[global];
  }
  return subscription;
}

export type VisibleChannels = Awaited<ReturnType<typeof loadVisibleChannels>>;

export function subscriptionState(
  loaded: VisibleChannels,
  includeSubscribers: boolean,
  opts: ChannelStateOptions & { resolveNullNotificationsFrom?: Readonly<Record<string, unknown>> },
) {
  const { visible, subs, subscribersOf, present } = loaded;
  const byChannel = new Map(subs.map((s) => [s.channel_id, s]));
  const subscriptions: unknown[] = [];
  const unsubscribed: unknown[] = [];
  const never: unknown[] = [];
  for (const channel of visible) {
    if (channel.deactivated && !opts.archivedChannels) continue;
    const sub = byChannel.get(channel.id);
    const subscribers = includeSubscribers ? (subscribersOf.get(channel.id) ?? []) : undefined;
    if (sub) {
      const presented = presentSubscription(sub, present(channel), subscribers);
      const global = opts.resolveNullNotificationsFrom;
      (sub.active ? subscriptions : unsubscribed).push(global ? withInheritedNotificationSettings(presented, global) : presented);
    }
    else never.push({ ...present(channel), ...(subscribers ? { subscribers } : {}) });
  }
  return { subscriptions, unsubscribed, never_subscribed: never };
}

export function streamState(loaded: VisibleChannels, opts: ChannelStateOptions) {
  const { visible, present } = loaded;
  return { streams: visible.filter((c) => !c.deactivated || opts.archivedChannels).map(present) };
}

/** Default channels as ids since FL 330, as the default_streams event carries them; guests get none (Zulip). */
export async function defaultStreamsState(tx: Tx, realm: RealmRow, user: UserRow) {
  const ids = isGuest(user) ? [] : await getDefaultChannelIds(tx, realm.id);
  return { realm_default_streams: [...ids].sort((a, b) => a - b) };
}
