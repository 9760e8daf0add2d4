/**
 * Personal settings and their defaults (spec 4.2). New users start from their realm's defaults
 * (realm_user_defaults overrides these); changing realm defaults never touches existing users.
 */

export const BOOLEAN_USER_SETTINGS = [
  "starred_message_counts", "receives_typing_notifications", "web_suggest_update_timezone",
  "fluid_layout_width", "high_contrast_mode", "enable_drafts_synchronization", "translate_emoticons",
  "display_emoji_reaction_users", "web_escape_navigates_to_home_view", "left_side_userlist",
  "hide_ai_features", "web_inbox_show_channel_folders",
  // The left sidebar's unread-count summary (FL 398) and its channel folders (FL 411).
  "web_left_sidebar_unreads_count_summary", "web_left_sidebar_show_channel_folders",
  "enable_stream_desktop_notifications",
  "enable_stream_email_notifications", "enable_stream_push_notifications",
  "enable_stream_audible_notifications", "enable_desktop_notifications", "enable_sounds",
  "enable_followed_topic_desktop_notifications", "enable_followed_topic_email_notifications",
  "enable_followed_topic_push_notifications", "enable_followed_topic_audible_notifications",
  "enable_offline_email_notifications", "enable_offline_push_notifications",
  "enable_online_push_notifications", "enable_digest_emails", "message_content_in_email_notifications",
  "pm_content_in_desktop_notifications", "wildcard_mentions_notify",
  "enable_followed_topic_wildcard_mentions_notify", "automatically_follow_topics_where_mentioned",
  "presence_enabled", "enter_sends", "twenty_four_hour_time", "send_private_typing_notifications",
  "send_stream_typing_notifications", "send_read_receipts", "web_navigate_to_sent_message",
  // The consent to exports of one's private data by administrators (FL 293), off unless given.
  "allow_private_data_export",
] as const;

/** Integer settings with their allowed values (null = any non-negative integer). */
export const INTEGER_USER_SETTINGS: Record<string, readonly number[] | null> = {
  web_channel_default_view: [1, 2, 3, 4],
  web_font_size_px: null,
  web_line_height_percent: null,
  color_scheme: [1, 2, 3],
  demote_inactive_streams: [1, 2, 3],
  user_list_style: [1, 2, 3],
  web_stream_unreads_count_display_policy: [1, 2, 3],
  email_notifications_batching_period_seconds: null,
  desktop_icon_count_display: [1, 2, 3, 4],
  automatically_follow_topics_policy: [1, 2, 3, 4],
  automatically_unmute_topics_in_muted_streams_policy: [1, 2, 3, 4],
  email_address_visibility: [1, 2, 3, 4, 5],
  // Zulip: 1 automatic, 2 always, 3 never.
  realm_name_in_email_notifications_policy: [1, 2, 3],
  // Zulip: 1 always, 2 only in conversation views, 3 never.
  web_mark_read_on_scroll_policy: [1, 2, 3],
};

/** Zulip's notification sounds (its static/audio/notification_sounds), plus "none". */
export const NOTIFICATION_SOUNDS: readonly string[] = [
  "ascend", "beep_boop", "bink", "bright", "brlip", "chime", "deep tom", "ding", "double tap", "down",
  "dry bongos", "dutdut", "fast ascend", "flute", "friendly", "kick roll", "loud tintong", "metallic snare",
  "pan", "practicechat", "shaker", "simple", "stairs", "subtle", "swish", "tintong", "up", "wood block",
  "zaping", "zing", "zulip", "none",
];

/** String settings with their allowed values (null = any string). */
export const STRING_USER_SETTINGS: Record<string, readonly string[] | null> = {
  web_home_view: ["recent", "inbox", "all_messages"],
  emojiset: ["google", "twitter", "text"],
  web_animate_image_previews: ["always", "on_hover", "never"],
  resolved_topic_notice_auto_read_policy: ["always", "except_followed", "never"],
  notification_sound: NOTIFICATION_SOUNDS,
  default_language: null,
  timezone: null,
};

/** Settings a user has but the realm's defaults for new users do not (Zulip's PATCH /settings only). */
export const PERSONAL_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  "default_language", "timezone", "enable_login_emails", "enable_marketing_emails",
]);

/** Personal-only booleans, beside BOOLEAN_USER_SETTINGS. */
export const PERSONAL_BOOLEAN_SETTINGS = ["enable_login_emails", "enable_marketing_emails"] as const;

export type UserSettings = Record<string, boolean | number | string>;

const TRUE_BY_DEFAULT = new Set([
  "starred_message_counts", "receives_typing_notifications", "web_suggest_update_timezone",
  "enable_drafts_synchronization", "display_emoji_reaction_users", "web_escape_navigates_to_home_view",
  "web_inbox_show_channel_folders", "web_left_sidebar_unreads_count_summary",
  "web_left_sidebar_show_channel_folders", "enable_desktop_notifications",
  "enable_sounds", "enable_followed_topic_desktop_notifications", "enable_followed_topic_email_notifications",
  "enable_followed_topic_push_notifications", "enable_followed_topic_audible_notifications",
  "enable_offline_email_notifications", "enable_offline_push_notifications", "enable_online_push_notifications",
  "enable_digest_emails", "message_content_in_email_notifications", "pm_content_in_desktop_notifications",
  "wildcard_mentions_notify", "enable_followed_topic_wildcard_mentions_notify",
  "automatically_follow_topics_where_mentioned", "presence_enabled", "send_private_typing_notifications",
  "send_stream_typing_notifications", "send_read_receipts", "web_navigate_to_sent_message",
  "enable_login_emails", "enable_marketing_emails",
]);

/** Zulip's defaults for a fresh realm. */
export function defaultUserSettings(): UserSettings {
  const settings: UserSettings = {};
  for (const name of [...BOOLEAN_USER_SETTINGS, ...PERSONAL_BOOLEAN_SETTINGS]) settings[name] = TRUE_BY_DEFAULT.has(name);
  Object.assign(settings, {
    web_channel_default_view: 1,
    web_font_size_px: 16,
    web_line_height_percent: 140,
    color_scheme: 1,
    demote_inactive_streams: 1,
    user_list_style: 2,
    web_stream_unreads_count_display_policy: 2,
    email_notifications_batching_period_seconds: 120,
    desktop_icon_count_display: 1,
    automatically_follow_topics_policy: 3,
    automatically_unmute_topics_in_muted_streams_policy: 4,
    email_address_visibility: 1,
    realm_name_in_email_notifications_policy: 1,
    web_mark_read_on_scroll_policy: 1,
    web_home_view: "inbox",
    emojiset: "google",
    web_animate_image_previews: "on_hover",
    resolved_topic_notice_auto_read_policy: "except_followed",
    notification_sound: "zulip",
    default_language: "en",
  });
  return settings;
}

const DEFAULT_SETTINGS: Readonly<UserSettings> = Object.freeze(defaultUserSettings());

/**
 * Parsed settings by their stored text. Most users store the very text their realm's defaults had
 * when they joined, so a 5,000-user register parses a handful of distinct texts rather than 10,000
 * (issue 8, S8). Bounded: emptied when full.
 */
const parsed = new Map<string, Readonly<UserSettings>>();
const PARSED_CACHE_SIZE = 256;

function readSettings(stored: string): Readonly<UserSettings> {
  let settings = parsed.get(stored);
  if (settings === undefined) {
    settings = Object.freeze({ ...DEFAULT_SETTINGS, ...(JSON.parse(stored) as UserSettings) });
    if (parsed.size >= PARSED_CACHE_SIZE) parsed.clear();
    parsed.set(stored, settings);
  }
  return settings;
}

/** A user's or realm's stored overrides on top of the defaults (a fresh object the caller may change). */
export function mergeSettings(stored: string): UserSettings {
  return { ...readSettings(stored) };
}

/** One setting of a user's or realm's stored settings, defaults applied; for hot paths that read one value. */
export function settingOf(stored: string, name: string): boolean | number | string | undefined {
  return readSettings(stored)[name];
}

/** The realm's defaults for new users, as clients see them (personal-only settings left out). */
export function realmDefaultSettings(stored: string): UserSettings {
  const merged = mergeSettings(stored);
  for (const name of PERSONAL_ONLY_SETTINGS) delete merged[name];
  return merged;
}
