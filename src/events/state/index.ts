/**
 * POST /register's initial state, section by section, keyed by the event type whose events keep
 * that section current (Zulip's fetch_initial_state_data). Only requested sections are computed.
 */
import { loadUserAccess, type UserAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { fakeEmailDomain } from "../../policy/email-visibility.js";
import { getRecipientMembers } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getRecentDirectConversations } from "../../store/state.js";
import { getUsersByIds } from "../../store/users.js";
import { devicesState } from "../../actions/push/client-devices.js";
import { presenceRowsFor, presentPresenceLegacy, presentPresenceModern } from "../../actions/users/presence.js";
import { navigationViewsState } from "../../actions/users/navigation-views.js";
import { savedSnippetsState } from "../../actions/users/saved-snippets.js";
import { remindersState } from "../../actions/messages/reminders.js";
import { realmDomainsState } from "../../actions/realm/realm-domains.js";
import { playgroundsState } from "../../actions/realm/realm-playgrounds.js";
import { scheduledMessagesState } from "../../actions/messages/scheduled-messages.js";
import { mergeSettings } from "../../lib/user-settings.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { defaultStreamsState, loadVisibleChannels, streamState, subscriptionState, type VisibleChannels } from "./channels.js";
import { getMutedTopicsList } from "../../actions/users/user-topics.js";
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
import { getVideoCallToken } from "../../store/video-call-tokens.js";

export interface StateContext {
  tx: Tx;
  deps: AppDeps;
  realm: RealmRow;
  user: UserRow;
  clientGravatar: boolean;
  includeSubscribers: boolean;
  capabilities: Record<string, boolean>;
  slimPresence: boolean;
  /** register's presence_history_limit_days (FL 288); 14 days when absent. */
  presenceHistoryDays?: number;
}

/** What one register loads once for several sections. */
interface Shared {
  channels?: Promise<VisibleChannels>;
  access?: Promise<UserAccess>;
}

type Section = (c: StateContext, shared: Shared) => Promise<Record<string, unknown>> | Record<string, unknown>;

const visibleChannels = (c: StateContext, shared: Shared) => (shared.channels ??= loadVisibleChannels(c.tx, c.realm, c.user, c.includeSubscribers, c.deps.clock.now()));
/** Whom the registrant may access (can_access_all_users_group): realm_user, user_status, presence. */
const userAccess = (c: StateContext, shared: Shared) => (shared.access ??= loadUserAccess(c.tx, c.user));

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
  const rows = await presenceRowsFor(c.deps, c.user, await c.deps.presence.realmPresence(c.realm.id, now, c.presenceHistoryDays));
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
  // The list of [channel name, topic, time] that user_topic replaced at FL 134 (see WANTED_WHEN).
  muted_topics: async (c) => ({ muted_topics: await getMutedTopicsList(c.tx, c.user.id) }),
  presence: presenceState,
  realm: (c) => realmState(c.tx, c.deps, c.realm),
  realm_billing: () => ({ realm_billing: { has_pending_sponsorship_request: false } }),
  realm_emoji: (c) => realmEmojiState(c.tx, c.realm),
  // URL-template linkifiers only for clients that can read them (linkifier_url_template, FL 176).
  realm_linkifiers: (c) => (c.capabilities.linkifier_url_template ? linkifiersState(c.tx, c.realm) : { realm_linkifiers: [] }),
  // The legacy name: always empty, as in Zulip, for its clients cannot read URL templates.
  realm_filters: () => ({ realm_filters: [] }),
  realm_user: async (c, shared) =>
    realmUserState(c.tx, c.realm, c.user, {
      gravatar: c.deps.config.enableGravatar,
      clientGravatar: c.clientGravatar,
      includeCustomProfileFields: true,
      access: await userAccess(c, shared),
      userListIncomplete: Boolean(c.capabilities.user_list_incomplete),
      emailDomain: fakeEmailDomain(c.deps.config, c.realm.string_id),
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
  // Parley has no default channel groups.
  default_stream_groups: () => ({ realm_default_stream_groups: [] }),
  update_message_flags: (c) => unreadState(c.tx, c.user.id, { allowEmptyTopicName: Boolean(c.capabilities.empty_topic_name) }),
  starred_messages: (c) => starredState(c.tx, c.user.id),
  user_settings: (c) => userSettingsState(c.user),
  // Legacy settings keys only for clients without user_settings_object (FL 89): one copy of the data.
  update_display_settings: (c) => (c.capabilities.user_settings_object ? {} : legacyDisplaySettingsState(c.user)),
  update_global_notifications: (c) => (c.capabilities.user_settings_object ? {} : legacyNotificationSettingsState(c.user)),
  user_status: async (c, shared) => userStatusState(c.tx, c.realm, await userAccess(c, shared)),
  user_topic: (c) => userTopicsState(c.tx, c.user, { allowEmptyTopicName: Boolean(c.capabilities.empty_topic_name) }),
  channel_folder: (c) => channelFoldersState(c.tx, c.realm),
  recent_private_conversations: recentConversations,
  realm_bot: (c) => realmBotsState(c.tx, c.realm, c.user, c.deps.config.enableGravatar),
  // Embedded bots are not enabled in Parley, and it has no incoming-webhook integrations.
  realm_embedded_bots: () => ({ realm_embedded_bots: [] }),
  realm_incoming_webhook_bots: () => ({ realm_incoming_webhook_bots: [] }),
  onboarding_steps: () => ({ onboarding_steps: [], navigation_tour_video_url: null }),
  // The user's undelivered scheduled messages (FL 179) and reminders (FL 399), failed ones included.
  scheduled_messages: (c) => scheduledMessagesState(c.tx, c.user),
  reminders: (c) => remindersState(c.tx, c.user),
  // Parley has no Zoom credentials; has_webex_token (FL 493): the user authorized Webex calls.
  video_calls: async (c) => ({ has_zoom_token: false, has_webex_token: (await getVideoCallToken(c.tx, c.user.id, "webex")) !== null }),
  // No GIF provider keys (GIPHY; Tenor, FL 442; KLIPY, FL 486): clients offer no GIF picker.
  giphy: () => ({ giphy_api_key: "", tenor_api_key: "", klipy_api_key: "" }),
  // Parley's search keeps every word.
  stop_words: () => ({ stop_words: [] }),
  realm_domains: (c) => realmDomainsState(c.tx, c.realm),
  realm_playgrounds: (c) => playgroundsState(c.tx, c.realm),
  saved_snippets: (c) => savedSnippetsState(c.tx, c.user),
  // The user's logged-in devices (FL 468), kept current by `device` events.
  device: (c) => devicesState(c.tx, c.user),
  navigation_view: (c) => navigationViewsState(c.tx, c.user),
};

/**
 * Sections that need more than their own name (Zulip's fetch_initial_state_data): unread_msgs
 * is kept current by message and flag events together; muted_topics is left out for clients that
 * asked for user_topic, its replacement, by name.
 */
const WANTED_WHEN: Record<string, (wanted: ReadonlySet<string>, eventTypes: readonly string[] | null) => boolean> = {
  update_message_flags: (wanted) => wanted.has("message"),
  muted_topics: (wanted, eventTypes) => eventTypes === null || !wanted.has("user_topic"),
};

/** Aliases: other event-type names that fetch the same sections. */
const ALIASES: Record<string, string> = {
  user_group: "realm_user_groups",
  channel_folders: "channel_folder",
  navigation_views: "navigation_view",
};

export const STATE_EVENT_TYPES = Object.keys(SECTIONS);

export async function fetchInitialState(c: StateContext, eventTypes: readonly string[] | null): Promise<Record<string, unknown>> {
  const wanted = new Set((eventTypes ?? STATE_EVENT_TYPES).map((t) => ALIASES[t] ?? t));
  const fetched = STATE_EVENT_TYPES.filter((type) => wanted.has(type) && (WANTED_WHEN[type]?.(wanted, eventTypes) ?? true));
  const shared: Shared = {};
  // Sections read independently, so they run together: on PostgreSQL their round trips overlap
  // (a register is about 35 statements). Merged in table order, so the answer is the same.
  const sections = await Promise.all(fetched.map((type) => SECTIONS[type](c, shared)));
  return Object.assign({}, ...sections) as Record<string, unknown>;
}
