/**
 * The `realm` section of POST /register: organization settings as realm_* keys, the limits
 * clients need (spec section 8, zulip-facts section c) and server constants (typing periods, …).
 */
import type { AppDeps } from "../../deps.js";
import { readReceiptsEnabled } from "../../lib/realm-settings.js";
import { realmUrl } from "../../lib/realm-url.js";
import { EMPTY_TOPIC_DISPLAY_NAME, MAX_TOPIC_LENGTH } from "../../lib/topics.js";
import { MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH } from "../../policy/channel-settings.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues } from "../../store/groups.js";
import type { RealmRow } from "../../store/types.js";
import { MAX_MESSAGE_LENGTH } from "../../actions/send-message.js";
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
  server_typing_started_wait_period_milliseconds: 30000,
  server_typing_stopped_wait_period_milliseconds: 12000,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 200,
  event_queue_longpoll_timeout_seconds: 90,
  realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
};

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
    realm_waiting_period_threshold: realm.waiting_period_threshold,
    realm_allow_edit_history: realm.allow_edit_history,
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
    realm_default_language: settings.default_language ?? "en",
    realm_icon_url: `${url}/static/images/logo/zulip-icon-square.svg`,
    realm_icon_source: "G",
    realm_presence_disabled: false,
    realm_push_notifications_enabled: deps.config.pushBouncerUrl !== null,
    realm_inline_image_preview: true,
    realm_inline_url_embed_preview: false,
    realm_enable_read_receipts: readReceiptsEnabled(realm),
    realm_enable_guest_user_indicator: true,
    realm_require_unique_names: false,
    realm_name_changes_disabled: false,
    realm_email_changes_disabled: false,
    realm_avatar_changes_disabled: false,
    realm_bot_domain: deps.config.externalHost.replace(/:\d+$/, ""),
    realm_upload_quota_mib: deps.config.uploadQuotaMib,
    realm_video_chat_provider: 1,
    realm_is_zephyr_mirror_realm: false,
    realm_digest_emails_enabled: false,
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
    password_min_guesses: 10000,
    giphy_api_key: "",
    // Jitsi Meet is the default video call provider (realm_video_chat_provider 1), and Zulip's
    // default server (JITSI_SERVER_URL); the deprecated jitsi_server_url is a string, never null
    // (found by fuzzing against the OpenAPI schema).
    jitsi_server_url: JITSI_SERVER_URL,
    server_jitsi_server_url: JITSI_SERVER_URL,
    stop_words: [],
  };
  for (const [name, id] of groupColumns) state[`realm_${name}`] = id === null ? null : (values.get(id) ?? id);
  return state;
}
