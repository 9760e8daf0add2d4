/**
 * The `realm` section of POST /register: organization settings as realm_* keys, the limits
 * clients need (spec section 8, zulip-facts section c) and server constants (typing periods, …).
 */
import type { AppDeps } from "../../deps.js";
import { digestSettingsOf, GIF_RATING_POLICY_OPTIONS, readReceiptsEnabled, realmJsonSetting, realmUuid } from "../../lib/realm-settings.js";
import { realmUrl } from "../../lib/realm-url.js";
import { EMPTY_TOPIC_DISPLAY_NAME, MAX_TOPIC_LENGTH } from "../../lib/topics.js";
import { MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH } from "../../policy/channel-settings.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues, getGroupsByIds } from "../../store/groups.js";
import { realmIconUrl } from "../../lib/avatar-urls.js";
import { serverEmojiDataUrl } from "../../lib/server-emoji-data.js";
import { defaultExternalAccounts, videoChatProviders, supportedPermissionSettings } from "./server.js";
import type { RealmRow } from "../../store/types.js";
import { MAX_MESSAGE_LENGTH } from "../../actions/messages/send-message.js";
import { MAX_REMINDER_NOTE_LENGTH } from "../../actions/messages/reminder-content.js";
import { REPORT_MESSAGE_TYPES } from "../../actions/messages/message-reports.js";
import { serverThumbnailFormats } from "../../uploads/thumbnail-formats.js";

/** Realm columns that are group settings (`*_group_id` → realm_*_group, `can_create_groups_id` → realm_can_create_groups). */
function groupSettingColumns(realm: RealmRow): Array<[string, number | null]> {
  return Object.entries(realm)
    .filter(([k]) => k.endsWith("_id") && (k.startsWith("can_") || k.startsWith("direct_message_") || k.startsWith("create_multiuse")))
    .map(([k, v]) => [k.slice(0, -3), v as number | null]);
}

/** Zulip's default Jitsi Meet server (its JITSI_SERVER_URL setting). */
export const JITSI_SERVER_URL = "https://meet.jit.si";

/** Register constants of zulip-facts section c. */
export const SERVER_LIMITS = {
  max_stream_name_length: MAX_CHANNEL_NAME_LENGTH,
  max_stream_description_length: MAX_CHANNEL_DESCRIPTION_LENGTH,
  max_topic_length: MAX_TOPIC_LENGTH,
  max_message_length: MAX_MESSAGE_LENGTH,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  max_bulk_new_subscription_messages: 100,
  max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
  server_typing_started_wait_period_milliseconds: 30000,
  server_typing_stopped_wait_period_milliseconds: 12000,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 200,
  event_queue_longpoll_timeout_seconds: 90,
  realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
};

/** Zulip's WildcardMentionPolicyEnum and the legacy channel-creation policies, by system group. */
const WILDCARD_MENTION_POLICY: Record<string, number> = {
  "role:everyone": 1, "role:members": 2, "role:fullmembers": 3, "role:administrators": 5, "role:nobody": 6, "role:moderators": 7,
};
const COMMON_POLICY: Record<string, number> = { "role:members": 1, "role:administrators": 2, "role:fullmembers": 3, "role:moderators": 4 };
const WEB_PUBLIC_POLICY: Record<string, number> = { "role:administrators": 2, "role:moderators": 4, "role:nobody": 6, "role:owners": 7 };

/**
 * The enum settings that group settings replaced, still sent (deprecated) for older clients and
 * read by the mobile app (realm_wildcard_mention_policy, which it requires): the value of the
 * system group the setting names, and for any other group the value of the largest group that
 * could have held it, as Zulip's get_corresponding_policy_value_for_group_setting does.
 */
async function legacyPolicies(tx: Tx, realm: RealmRow): Promise<Record<string, number>> {
  const ids = [realm.can_mention_many_users_group_id, realm.can_create_public_channel_group_id, realm.can_create_private_channel_group_id, realm.can_create_web_public_channel_group_id];
  const groups = await getGroupsByIds(tx, realm.id, ids.filter((id): id is number => id !== null));
  const systemName = (id: number | null) => groups.find((g) => g.id === id && g.is_system_group)?.name ?? "";
  const policy = (id: number | null, values: Record<string, number>, fallback: number) => values[systemName(id)] ?? fallback;
  return {
    realm_wildcard_mention_policy: policy(realm.can_mention_many_users_group_id, WILDCARD_MENTION_POLICY, 1),
    realm_create_public_stream_policy: policy(realm.can_create_public_channel_group_id, COMMON_POLICY, 1),
    realm_create_private_stream_policy: policy(realm.can_create_private_channel_group_id, COMMON_POLICY, 1),
    realm_create_web_public_stream_policy: policy(realm.can_create_web_public_channel_group_id, WEB_PUBLIC_POLICY, 4),
  };
}

/** What Zulip sends with the realm section about the server, and the settings Parley keeps fixed. */
function serverFacts(deps: AppDeps, realm: RealmRow): Record<string, unknown> {
  return {
    server_emoji_data_url: serverEmojiDataUrl(realmUrl(deps.config.externalHost, realm.string_id)),
    realm_default_external_accounts: defaultExternalAccounts(),
    realm_available_video_chat_providers: videoChatProviders(deps.config),
    // FL 442 and 453 renamed giphy_rating_options and realm_giphy_rating; Zulip sends only the new names.
    gif_rating_policy_options: GIF_RATING_POLICY_OPTIONS,
    server_supported_permission_settings: supportedPermissionSettings(),
    server_can_summarize_topics: false,
    // Zulip's SEND_DIGEST_EMAILS: Parley sends them (actions/notifications/digest.ts). It never deletes realm data.
    settings_send_digest_emails: true,
    realm_message_content_allowed_in_email_notifications: true,
    server_min_deactivated_realm_deletion_days: null,
    server_max_deactivated_realm_deletion_days: null,
    realm_disallow_disposable_email_addresses: false,
    realm_want_advertise_in_communities_directory: false,
    realm_default_code_block_language: "",
    realm_enable_guest_user_dm_warning: true,
    realm_push_notifications_enabled_end_timestamp: null,
    upgrade_text_for_wide_organization_logo: "",
    server_report_message_types: REPORT_MESSAGE_TYPES,
  };
}

export async function realmState(tx: Tx, deps: AppDeps, realm: RealmRow): Promise<Record<string, unknown>> {
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  const settings = JSON.parse(realm.settings) as Record<string, unknown>;
  const groupColumns = groupSettingColumns(realm);
  const values = await getGroupSettingValues(tx, groupColumns.map(([, id]) => id).filter((id): id is number => id !== null));
  const state: Record<string, unknown> = {
    ...SERVER_LIMITS,
    max_file_upload_size_mib: deps.config.maxFileUploadSizeMib,
    realm_name: realm.name,
    realm_description: realm.description,
    realm_url: url,
    realm_uri: url,
    realm_date_created: realm.date_created,
    realm_org_type: realm.org_type,
    realm_plan_type: 1,
    // FL 438: whether owners may see all private content (full exports without consent); set by the operator.
    realm_owner_full_content_access: settings.owner_full_content_access === true,
    realm_waiting_period_threshold: realm.waiting_period_threshold,
    realm_allow_edit_history: realm.allow_edit_history,
    // FL 358 replaced the boolean; Parley keeps all history or none.
    realm_message_edit_history_visibility_policy: realm.allow_edit_history ? "all" : "none",
    realm_allow_message_editing: realm.allow_message_editing,
    realm_message_content_edit_limit_seconds: realm.message_content_edit_limit_seconds,
    realm_message_content_delete_limit_seconds: realm.message_content_delete_limit_seconds,
    realm_move_messages_within_stream_limit_seconds: realm.move_messages_within_stream_limit_seconds,
    realm_move_messages_between_streams_limit_seconds: realm.move_messages_between_streams_limit_seconds,
    realm_message_retention_days: realm.message_retention_days ?? -1,
    realm_topics_policy: realm.topics_policy,
    realm_mandatory_topics: realm.topics_policy === "disable_empty_topic",
    realm_invite_required: realm.invite_required,
    realm_emails_restricted_to_domains: realm.emails_restricted_to_domains,
    realm_enable_spectator_access: realm.enable_spectator_access,
    realm_password_auth_enabled: realm.password_auth_enabled,
    realm_email_auth_enabled: realm.password_auth_enabled,
    realm_authentication_methods: { Email: { enabled: realm.password_auth_enabled, available: true } },
    realm_new_stream_announcements_stream_id: settings.new_stream_announcements_stream_id ?? -1,
    realm_signup_announcements_stream_id: settings.signup_announcements_stream_id ?? -1,
    realm_zulip_update_announcements_stream_id: settings.zulip_update_announcements_stream_id ?? -1,
    // Where message reports go (FL 331); clients offer reporting only when it names a channel.
    realm_moderation_request_channel_id: settings.moderation_request_channel_id ?? -1,
    realm_default_language: settings.default_language ?? "en",
    // Welcome Bot's custom message to new users (FL 416); "" sends none.
    realm_welcome_message_custom_text: typeof settings.welcome_message_custom_text === "string" ? settings.welcome_message_custom_text : "",
    realm_icon_url: realmIconUrl(realm, deps.config.enableGravatar),
    realm_icon_source: "G",
    // No realm uploads a logo: the default one ("D"), served as the realm's icon.
    realm_logo_url: realmIconUrl(realm, deps.config.enableGravatar),
    realm_logo_source: "D",
    realm_night_logo_url: realmIconUrl(realm, deps.config.enableGravatar),
    realm_night_logo_source: "D",
    realm_presence_disabled: false,
    realm_push_notifications_enabled: deps.config.pushBouncerUrl !== null,
    realm_inline_image_preview: true,
    realm_inline_url_embed_preview: false,
    realm_enable_read_receipts: readReceiptsEnabled(realm),
    realm_gif_rating_policy: realmJsonSetting(realm, "gif_rating_policy"),
    realm_media_preview_size: realmJsonSetting(realm, "media_preview_size"),
    realm_default_avatar_source: realmJsonSetting(realm, "default_avatar_source"),
    realm_send_channel_events_messages: realmJsonSetting(realm, "send_channel_events_messages"),
    realm_require_e2ee_push_notifications: realmJsonSetting(realm, "require_e2ee_push_notifications"),
    // A stable identifier of the organization (FL 466), unlike its URL.
    realm_uuid: realmUuid(realm),
    realm_enable_guest_user_indicator: true,
    realm_require_unique_names: false,
    realm_name_changes_disabled: false,
    realm_email_changes_disabled: false,
    realm_avatar_changes_disabled: false,
    realm_bot_domain: deps.config.externalHost.replace(/:\d+$/, ""),
    realm_upload_quota_mib: deps.config.uploadQuotaMib,
    realm_video_chat_provider: realmJsonSetting(realm, "video_chat_provider"),
    realm_is_zephyr_mirror_realm: false,
    realm_digest_emails_enabled: digestSettingsOf(realm).enabled,
    realm_digest_weekday: digestSettingsOf(realm).weekday,
    realm_send_welcome_emails: true,
    server_web_public_streams_enabled: deps.config.webPublicStreamsEnabled,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_thumbnail_formats: serverThumbnailFormats(),
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_generation: 1,
    development_environment: false,
    zulip_plan_is_not_limited: true,
    password_min_length: 6,
    // Zulip's PASSWORD_MAX_LENGTH.
    password_max_length: 100,
    password_min_guesses: 10000,
    // Jitsi Meet is the default video call provider (realm_video_chat_provider 1), and Zulip's
    // default server (JITSI_SERVER_URL); the deprecated jitsi_server_url is a string, never null
    // (found by fuzzing against the OpenAPI schema).
    jitsi_server_url: JITSI_SERVER_URL,
    server_jitsi_server_url: JITSI_SERVER_URL,
    realm_jitsi_server_url: null,
    ...(await legacyPolicies(tx, realm)),
    ...serverFacts(deps, realm),
  };
  for (const [name, id] of groupColumns) state[`realm_${name}`] = id === null ? null : (values.get(id) ?? id);
  return state;
}
