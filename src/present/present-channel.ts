/** The channel (stream) and subscription objects of Zulip's API, built from rows (pure). */
import { CHANNEL_GROUP_SETTINGS, settingGroupId } from "../policy/channel-settings.js";
import type { GroupSettingValue } from "../store/groups.js";
import type { ChannelRow, SubscriptionRow } from "../store/types.js";

/**
 * Zulip's legacy stream_post_policy, derived from can_send_message_group for old clients (FL 333):
 * the closest system group decides, anything else reads as "everyone".
 */
const STREAM_POST_POLICY: Record<string, number> = {
  "role:everyone": 1,
  "role:administrators": 2,
  "role:fullmembers": 3,
  "role:moderators": 4,
};
const STREAM_POST_POLICY_ADMINS = 2;

/** The group ids a channel's settings point at (to load their API values in one query). */
export function channelGroupIds(channel: ChannelRow): number[] {
  return CHANNEL_GROUP_SETTINGS.map((s) => settingGroupId(channel, s)).filter((id) => id != null);
}

export interface ChannelPresentationData {
  /** API values of the groups the channel's settings point at. */
  groupValues: ReadonlyMap<number, GroupSettingValue>;
  /** Names of the realm's system groups by id (for stream_post_policy). */
  systemGroupNames: ReadonlyMap<number, string>;
  subscriberCount: number;
  /** stream_weekly_traffic (lib/channel-traffic.ts); null for a channel under a week old. */
  weeklyTraffic: number | null;
  isDefault?: boolean;
}

export function presentChannel(channel: ChannelRow, data: ChannelPresentationData): Record<string, unknown> {
  const postPolicy = STREAM_POST_POLICY[data.systemGroupNames.get(channel.can_send_message_group_id as number) ?? ""] ?? 1;
  const out: Record<string, unknown> = {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.rendered_description,
    date_created: channel.date_created,
    creator_id: channel.creator_id,
    invite_only: channel.invite_only,
    is_web_public: channel.is_web_public,
    history_public_to_subscribers: channel.history_public_to_subscribers,
    first_message_id: channel.first_message_id,
    folder_id: channel.folder_id,
    is_archived: channel.deactivated,
    is_recently_active: channel.is_recently_active,
    // null inherits the realm's policy; -1 keeps messages forever (the API's own encoding).
    message_retention_days: channel.message_retention_days,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === STREAM_POST_POLICY_ADMINS,
    topics_policy: channel.topics_policy,
    subscriber_count: data.subscriberCount,
    stream_weekly_traffic: data.weeklyTraffic,
  };
  if (data.isDefault !== undefined) out.is_default = data.isDefault;
  for (const s of CHANNEL_GROUP_SETTINGS) {
    const id = settingGroupId(channel, s);
    out[s.name] = data.groupValues.get(id) ?? id;
  }
  return out;
}

/** The personal part of a subscription: colors and notification settings (null = inherit the user's default). */
export function presentSubscriptionSettings(sub: SubscriptionRow): Record<string, unknown> {
  return {
    color: sub.color,
    pin_to_top: sub.pin_to_top,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    desktop_notifications: sub.desktop_notifications,
    audible_notifications: sub.audible_notifications,
    push_notifications: sub.push_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
  };
}

/** A subscription object (OpenAPI `Subscriptions`): the channel's fields plus the personal settings. */
export function presentSubscription(
  sub: SubscriptionRow,
  channelObject: Record<string, unknown>,
  subscribers?: readonly number[],
): Record<string, unknown> {
  const out = { ...channelObject, ...presentSubscriptionSettings(sub) };
  delete out.is_default;
  if (subscribers !== undefined) out.subscribers = [...subscribers];
  return out;
}
