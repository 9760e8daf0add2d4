/**
 * POST /register's initial state, section by section, keyed by the event type whose events keep
 * that section current (Zulip's fetch_initial_state_data). Only requested sections are computed.
 */
import type { AppDeps } from "../../deps.js";
import { getRecipientMembers } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getRecentDirectConversations } from "../../store/state.js";
import { getUsersByIds } from "../../store/users.js";
import { presentPresenceLegacy, presentPresenceModern } from "../../actions/presence.js";
import { mergeSettings } from "../../lib/user-settings.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { defaultStreamsState, loadVisibleChannels, streamState, subscriptionState, type VisibleChannels } from "./channels.js";
import { maxMessageIdState, starredState, unreadState } from "./messages.js";
import {
  channelFoldersState,
  customProfileFieldsState,
  linkifiersState,
  personalListsState,
  realmEmojiState,
  userStatusState,
  userTopicsState,
} from "./misc.js";
import { realmBotsState, realmUserState, userGroupsState } from "./people.js";
import { realmState } from "./realm.js";
import { legacyDisplaySettingsState, legacyNotificationSettingsState, realmUserDefaultsState, userSettingsState } from "./settings.js";

export interface StateContext {
  tx: Tx;
  deps: AppDeps;
  realm: RealmRow;
  user: UserRow;
  clientGravatar: boolean;
  includeSubscribers: boolean;
  capabilities: Record<string, boolean>;
  slimPresence: boolean;
}

/** What one register loads once for several sections. */
interface Shared {
  channels?: Promise<VisibleChannels>;
}

type Section = (c: StateContext, shared: Shared) => Promise<Record<string, unknown>> | Record<string, unknown>;

const visibleChannels = (c: StateContext, shared: Shared) => (shared.channels ??= loadVisibleChannels(c.tx, c.realm, c.user, c.includeSubscribers, c.deps.clock.now()));

async function recentConversations(c: StateContext) {
  const rows = await getRecentDirectConversations(c.tx, c.user.id);
  const members = await getRecipientMembers(c.tx, rows.map((r) => r.recipient_id));
  return {
    recent_private_conversations: rows.map((r) => ({
      max_message_id: Number(r.max_id),
      user_ids: (members.get(r.recipient_id) ?? []).filter((id) => id !== c.user.id),
    })),
  };
}

/** Realm presence: keyed by user id (slim_presence) or, for old clients, by email. */
async function presenceState(c: StateContext) {
  const now = c.deps.clock.now();
  const rows = await c.deps.presence.realmPresence(c.realm.id, now);
  const presences = c.slimPresence
    ? Object.fromEntries(rows.map((r) => [String(r.user_id), presentPresenceModern(r)]))
    : Object.fromEntries(
        (await getUsersByIds(c.tx, c.realm.id, rows.map((r) => r.user_id))).map((u) => [u.email, presentPresenceLegacy(rows.find((r) => r.user_id === u.id)!)]),
      );
  return { presences, server_timestamp: now, presence_last_update_id: Math.max(-1, ...rows.map((r) => r.last_update_id)) };
}

const SECTIONS: Record<string, Section> = {
  alert_words: (c) => personalListsState(c.tx, c.user, "alert_words"),
  custom_profile_fields: (c) => customProfileFieldsState(c.tx, c.realm),
  drafts: (c) => personalListsState(c.tx, c.user, "drafts"),
  message: (c) => maxMessageIdState(c.tx, c.user.id),
  muted_users: (c) => personalListsState(c.tx, c.user, "muted_users"),
  presence: presenceState,
  realm: (c) => realmState(c.tx, c.deps, c.realm),
  realm_emoji: (c) => realmEmojiState(c.tx, c.realm),
  realm_linkifiers: (c) => linkifiersState(c.tx, c.realm),
  realm_user: (c) =>
    realmUserState(c.tx, c.realm, c.user, {
      clientGravatar: c.clientGravatar,
      includeCustomProfileFields: true,
      avatarUrlOptional: Boolean(c.capabilities.user_avatar_url_field_optional),
    }),
  realm_user_groups: (c) => userGroupsState(c.tx, c.realm, { includeDeactivated: Boolean(c.capabilities.include_deactivated_groups) }),
  realm_user_settings_defaults: (c) => realmUserDefaultsState(c.tx, c.realm.id),
  stream: async (c, shared) => streamState(await visibleChannels(c, shared), { archivedChannels: Boolean(c.capabilities.archived_channels) }),
  subscription: async (c, shared) =>
    subscriptionState(await visibleChannels(c, shared), c.includeSubscribers, {
      archivedChannels: Boolean(c.capabilities.archived_channels),
      resolveNullNotificationsFrom: c.capabilities.notification_settings_null ? undefined : mergeSettings(c.user.settings),
    }),
  default_streams: (c) => defaultStreamsState(c.tx, c.realm, c.user),
  update_message_flags: async (c) => ({
    ...(await unreadState(c.tx, c.user.id, { allowEmptyTopicName: Boolean(c.capabilities.empty_topic_name) })),
    ...(await starredState(c.tx, c.user.id)),
  }),
  user_settings: (c) => userSettingsState(c.user),
  // Legacy settings keys only for clients without user_settings_object (FL 89): one copy of the data.
  update_display_settings: (c) => (c.capabilities.user_settings_object ? {} : legacyDisplaySettingsState(c.user)),
  update_global_notifications: (c) => (c.capabilities.user_settings_object ? {} : legacyNotificationSettingsState(c.user)),
  user_status: (c) => userStatusState(c.tx, c.realm),
  user_topic: (c) => userTopicsState(c.tx, c.user, { allowEmptyTopicName: Boolean(c.capabilities.empty_topic_name) }),
  channel_folder: (c) => channelFoldersState(c.tx, c.realm),
  recent_private_conversations: recentConversations,
  realm_bot: (c) => realmBotsState(c.tx, c.realm, c.user),
  onboarding_steps: () => ({ onboarding_steps: [] }),
  scheduled_messages: () => ({ scheduled_messages: [] }),
  video_calls: () => ({ has_zoom_token: false }),
  realm_domains: () => ({ realm_domains: [] }),
  realm_playgrounds: () => ({ realm_playgrounds: [] }),
  saved_snippets: () => ({ saved_snippets: [] }),
  navigation_view: () => ({ navigation_views: [] }),
};

/** Aliases: older event-type names that fetch the same sections. */
const ALIASES: Record<string, string> = {
  user_group: "realm_user_groups",
  realm_filters: "realm_linkifiers",
  muted_topics: "user_topic",
  channel_folders: "channel_folder",
};

export const STATE_EVENT_TYPES = Object.keys(SECTIONS);

export async function fetchInitialState(c: StateContext, eventTypes: readonly string[] | null): Promise<Record<string, unknown>> {
  const wanted = new Set((eventTypes ?? STATE_EVENT_TYPES).map((t) => ALIASES[t] ?? t));
  const shared: Shared = {};
  // Sections read independently, so they run together: on PostgreSQL their round trips overlap
  // (a register is about 35 statements). Merged in table order, so the answer is the same.
  const sections = await Promise.all(STATE_EVENT_TYPES.filter((type) => wanted.has(type)).map((type) => SECTIONS[type](c, shared)));
  const state: Record<string, unknown> = Object.assign({}, ...sections);
  if (wanted.has("realm_linkifiers") && eventTypes?.includes("realm_filters")) {
    state.realm_filters = (state.realm_linkifiers as Array<{ pattern: string; url_template: string; id: number }>).map((l) => [l.pattern, l.url_template, l.id]);
  }
  return state;
}
