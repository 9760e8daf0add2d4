/**
 * Pure predicates for changing existing messages: editing content, moving between topics and
 * channels, resolving topics and deleting. Each organization-level group setting can be widened
 * per channel by the matching channel setting; channel administrators (and organization
 * administrators) may always move messages within and out of their channels.
 */
import type { ChannelRow, RealmRow } from "../store/types.js";
import { canAdministerChannel } from "./channels.js";
import type { Membership } from "./group-settings.js";
import { isModerator, isRealmAdmin } from "./roles.js";

/** Zulip's grace period on the edit and move time limits, for clients racing the deadline. */
export const EDIT_LIMIT_BUFFER_SECONDS = 20;

/** Administering a channel does not depend on being subscribed to it. */
const administers = (m: Membership, channel: ChannelRow) => canAdministerChannel({ membership: m, subscribed: false }, channel);

function canMoveWithinChannel(m: Membership, channel: ChannelRow): boolean {
  return isRealmAdmin(m.user) || administers(m, channel) || m.has(channel.can_move_messages_within_channel_group_id);
}

/** May rename the topic of messages in `orig` (possibly while moving them to `target`). */
export function canEditTopic(m: Membership, realm: RealmRow, orig: ChannelRow, target: ChannelRow): boolean {
  return (
    m.has(realm.can_move_messages_between_topics_group_id) ||
    canMoveWithinChannel(m, orig) ||
    (orig.id !== target.id && canMoveWithinChannel(m, target))
  );
}

export function canResolveTopics(m: Membership, realm: RealmRow, orig: ChannelRow, target: ChannelRow): boolean {
  return (
    m.has(realm.can_resolve_topics_group_id) ||
    m.has(orig.can_resolve_topics_group_id) ||
    (orig.id !== target.id && m.has(target.can_resolve_topics_group_id))
  );
}

export function canMoveOutOfChannel(m: Membership, realm: RealmRow, channel: ChannelRow): boolean {
  return (
    isRealmAdmin(m.user) ||
    m.has(realm.can_move_messages_between_channels_group_id, { allowEveryone: false }) ||
    administers(m, channel) ||
    m.has(channel.can_move_messages_out_of_channel_group_id, { allowEveryone: false })
  );
}

export function canDeleteAnyMessage(m: Membership, realm: RealmRow, channel: ChannelRow | null): boolean {
  return (
    m.has(realm.can_delete_any_message_group_id, { allowEveryone: false }) ||
    (channel !== null && m.has(channel.can_delete_any_message_group_id, { allowEveryone: false }))
  );
}

export function canDeleteOwnMessage(m: Membership, realm: RealmRow, channel: ChannelRow | null): boolean {
  return m.has(realm.can_delete_own_message_group_id) || (channel !== null && m.has(channel.can_delete_own_message_group_id));
}

/** Moderators and above are exempt from the move time limits. */
export const exemptFromMoveLimits = (m: Membership) => isModerator(m.user);

/** Whether a message sent at `sentAt` is older than `limitSeconds` (null: no limit) plus `buffer`. */
export function pastLimit(sentAt: number, now: number, limitSeconds: number | null, buffer = 0): boolean {
  return limitSeconds !== null && now - sentAt > limitSeconds + buffer;
}
