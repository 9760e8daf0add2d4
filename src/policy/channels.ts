/**
 * Pure channel permission predicates. Zulip distinguishes metadata access (seeing that a channel
 * exists, its name and settings) from content access (reading its messages); both hang off the
 * channel's privacy, the viewer's role and subscription, and group settings. The groups granting
 * either access all have allow_everyone_group=false, so guests never gain access through them.
 */
import type { ChannelRow } from "../store/types.js";
import type { Membership } from "./group-settings.js";
import { isGuest, isRealmAdmin } from "./roles.js";

export interface ChannelViewer {
  membership: Membership;
  /** Actively subscribed to this channel. */
  subscribed: boolean;
}

const nonGuests = { allowEveryone: false };

/** In can_subscribe_group or can_add_subscribers_group: both grant content access (FL 349/357). */
function inContentAccessGroups(v: ChannelViewer, channel: ChannelRow): boolean {
  return v.membership.has(channel.can_subscribe_group_id, nonGuests) || v.membership.has(channel.can_add_subscribers_group_id, nonGuests);
}

/** Administers the channel: realm admins always; else can_administer_channel_group. */
export function canAdministerChannel(v: ChannelViewer, channel: ChannelRow): boolean {
  return isRealmAdmin(v.membership.user) || v.membership.has(channel.can_administer_channel_group_id, nonGuests);
}

/** May see the channel exists (GET /streams/{id}, its name in lists, its events). */
export function canSeeChannelMetadata(v: ChannelViewer, channel: ChannelRow): boolean {
  if (channel.is_web_public || v.subscribed) return true;
  const user = v.membership.user;
  if (isGuest(user)) return false;
  if (!channel.invite_only || isRealmAdmin(user)) return true;
  return canAdministerChannel(v, channel) || inContentAccessGroups(v, channel);
}

/**
 * May read the channel's messages without being subscribed: web-public channels for everyone,
 * public ones for non-guests, private ones for members of the groups granting content access.
 */
export function canReadUnsubscribed(v: ChannelViewer, channel: ChannelRow): boolean {
  if (channel.is_web_public) return true;
  if (isGuest(v.membership.user)) return false;
  return !channel.invite_only || inContentAccessGroups(v, channel);
}

/**
 * May read the channel's messages without holding a user_messages row for them (sent before they
 * joined, or without ever subscribing): the history must be open to them, i.e. readable unsubscribed
 * and not protected (web-public is always open), or shared with subscribers they are among.
 */
export function canReadSharedHistory(v: ChannelViewer, channel: ChannelRow): boolean {
  if (canReadUnsubscribed(v, channel)) return channel.history_public_to_subscribers || channel.is_web_public;
  return v.subscribed && channel.history_public_to_subscribers;
}

/** Content access (Zulip's user_has_content_access). Protected-history limits apply separately. */
export function canReadChannel(v: ChannelViewer, channel: ChannelRow): boolean {
  return v.subscribed || canReadUnsubscribed(v, channel);
}

/** May subscribe oneself: whoever has content access (non-guests to public channels; private ones via groups). */
export function canSubscribeSelf(v: ChannelViewer, channel: ChannelRow): boolean {
  return canReadChannel(v, channel);
}

/**
 * Holds a permission to subscribe others to the channel: the realm's can_add_subscribers_group,
 * realm admin (so admins add to public channels regardless), channel admin, or the channel's
 * can_add_subscribers_group. The creator of a new channel needs only this.
 */
export function hasAddSubscribersPermission(v: ChannelViewer, channel: ChannelRow, realmCanAddSubscribersGroupId: number | null): boolean {
  if (isGuest(v.membership.user)) return false;
  return (
    v.membership.has(realmCanAddSubscribersGroupId, nonGuests) ||
    canAdministerChannel(v, channel) ||
    v.membership.has(channel.can_add_subscribers_group_id, nonGuests)
  );
}

/** May subscribe others to an existing channel: content access plus the permission above. */
export function canAddSubscribers(v: ChannelViewer, channel: ChannelRow, realmCanAddSubscribersGroupId: number | null): boolean {
  return canReadChannel(v, channel) && hasAddSubscribersPermission(v, channel, realmCanAddSubscribersGroupId);
}

/**
 * May remove other subscribers: realm admins always (spec 4.3), channel admins even without
 * access, else can_remove_subscribers_group for those who can see the channel.
 */
export function canRemoveSubscribers(v: ChannelViewer, channel: ChannelRow): boolean {
  if (isRealmAdmin(v.membership.user)) return true;
  if (isGuest(v.membership.user)) return false;
  if (canAdministerChannel(v, channel)) return true;
  return canSeeChannelMetadata(v, channel) && v.membership.has(channel.can_remove_subscribers_group_id);
}

/**
 * May post (Zulip's access_stream_for_send_message): not archived, in can_send_message_group, and
 * subscribed unless the channel is web-public, public (non-guests), or private with shared history
 * and the poster in a group granting content access (FL 354).
 */
export function canPostToChannel(v: ChannelViewer, channel: ChannelRow): boolean {
  if (channel.deactivated) return false;
  if (!v.membership.has(channel.can_send_message_group_id)) return false;
  if (v.subscribed || channel.is_web_public) return true;
  if (isGuest(v.membership.user)) return false;
  if (!channel.invite_only) return true;
  return channel.history_public_to_subscribers && inContentAccessGroups(v, channel);
}
