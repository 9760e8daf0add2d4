/**
 * The personal settings shown on the settings pages, grouped as Zulip's web app groups them, with
 * the values spec 4.2 allows. One list serves both a user's own settings (PATCH /settings) and the
 * organization's defaults for new users (PATCH /realm/user_settings_defaults); `personalOnly`
 * marks the few that the defaults do not have.
 */

export type SettingValue = boolean | number | string;

export interface SettingDef {
  name: string;
  label: string;
  /** A checkbox; a select of `options`; a number (with bounds) or free text. */
  kind: "boolean" | "select" | "number" | "text";
  options?: ReadonlyArray<readonly [value: SettingValue, label: string]>;
  min?: number;
  max?: number;
  personalOnly?: boolean;
}

export interface SettingGroup {
  id: string;
  title: string;
  settings: readonly SettingDef[];
}

const bool = (name: string, label: string, personalOnly = false): SettingDef => ({ name, label, kind: "boolean", personalOnly });
const select = (name: string, label: string, options: SettingDef["options"]): SettingDef => ({ name, label, kind: "select", options });

/** Spec 4.2: 1 participates in, 2 sends a message to, 3 starts, 4 never. */
const FOLLOW_POLICY = [
  [1, "Topics I participate in"],
  [2, "Topics I send a message to"],
  [3, "Topics I start"],
  [4, "Never"],
] as const;

export const PREFERENCE_GROUPS: readonly SettingGroup[] = [
  {
    id: "general",
    title: "General",
    settings: [
      select("color_scheme", "Theme", [[1, "Automatic (follows system settings)"], [2, "Dark"], [3, "Light"]]),
      { name: "web_font_size_px", label: "Font size (pixels)", kind: "number", min: 12, max: 24 },
      { name: "web_line_height_percent", label: "Line spacing (percent)", kind: "number", min: 100, max: 200 },
      select("twenty_four_hour_time", "Time format", [[false, "12-hour (5:00 PM)"], [true, "24-hour (17:00)"]]),
      select("emojiset", "Emoji theme", [["google", "Google"], ["twitter", "Twitter"], ["text", "Plain text"]]),
      bool("translate_emoticons", "Convert emoticons before sending (:) becomes 😃)"),
      bool("display_emoji_reaction_users", "Display names of reacting users when few users have reacted"),
      bool("fluid_layout_width", "Use full width on wide screens"),
      bool("high_contrast_mode", "High contrast mode"),
      { name: "default_language", label: "Language (code, e.g. en)", kind: "text", personalOnly: true },
      { name: "timezone", label: "Time zone (IANA name, e.g. Europe/Paris)", kind: "text", personalOnly: true },
      bool("web_suggest_update_timezone", "Ask to update the time zone when the system's changes"),
    ],
  },
  {
    id: "navigation",
    title: "Navigation",
    settings: [
      select("web_home_view", "Home view", [["inbox", "Inbox"], ["recent", "Recent conversations"], ["all_messages", "Combined feed"]]),
      bool("web_escape_navigates_to_home_view", "Escape key navigates to the home view"),
      select("web_channel_default_view", "Channel links in the left sidebar go to", [[1, "Top topic in the channel"], [2, "Channel feed"], [3, "List of topics"], [4, "Top unread topic in the channel"]]),
      select("demote_inactive_streams", "Demote inactive channels", [[1, "Automatic"], [2, "Always"], [3, "Never"]]),
      select("web_stream_unreads_count_display_policy", "Show unread counts for", [[1, "All channels"], [2, "Unmuted channels and topics"], [3, "No channels"]]),
      bool("starred_message_counts", "Show counts for starred messages"),
      select("user_list_style", "User list style", [[1, "Compact"], [2, "Show status text"], [3, "Show avatar and status"]]),
      bool("left_side_userlist", "Show the user list in the left sidebar in narrow windows"),
      bool("web_inbox_show_channel_folders", "Show channel folders in the inbox"),
      bool("web_navigate_to_sent_message", "Go to the conversation where you sent a message"),
      select("web_mark_read_on_scroll_policy", "Mark messages as read on scroll", [[1, "Always"], [2, "Only in conversation views"], [3, "Never"]]),
      select("resolved_topic_notice_auto_read_policy", "Mark resolved-topic notices as read", [["always", "Always"], ["except_followed", "Except in topics I follow"], ["never", "Never"]]),
      select("web_animate_image_previews", "Play animated images", [["always", "Always"], ["on_hover", "On hover"], ["never", "Never"]]),
      bool("enter_sends", "Enter sends the message (Ctrl+Enter makes a new line)"),
      bool("enable_drafts_synchronization", "Save drafts on the server"),
      bool("hide_ai_features", "Hide AI features"),
    ],
  },
];

export const NOTIFICATION_GROUPS: readonly SettingGroup[] = [
  {
    id: "channels",
    title: "Channel messages",
    settings: [
      bool("enable_stream_desktop_notifications", "Desktop notifications for channel messages"),
      bool("enable_stream_audible_notifications", "Sound for channel messages"),
      bool("enable_stream_push_notifications", "Mobile notifications for channel messages"),
      bool("enable_stream_email_notifications", "Email notifications for channel messages"),
      bool("wildcard_mentions_notify", "Notify me of @all and @topic mentions"),
    ],
  },
  {
    id: "followed",
    title: "Followed topics",
    settings: [
      bool("enable_followed_topic_desktop_notifications", "Desktop notifications for followed topics"),
      bool("enable_followed_topic_audible_notifications", "Sound for followed topics"),
      bool("enable_followed_topic_push_notifications", "Mobile notifications for followed topics"),
      bool("enable_followed_topic_email_notifications", "Email notifications for followed topics"),
      bool("enable_followed_topic_wildcard_mentions_notify", "Notify me of @all and @topic mentions in followed topics"),
      select("automatically_follow_topics_policy", "Automatically follow topics", FOLLOW_POLICY),
      select("automatically_unmute_topics_in_muted_streams_policy", "Automatically unmute topics in muted channels", FOLLOW_POLICY),
      bool("automatically_follow_topics_where_mentioned", "Automatically follow topics where I'm mentioned"),
    ],
  },
  {
    id: "desktop",
    title: "Desktop and mobile",
    settings: [
      bool("enable_desktop_notifications", "Desktop notifications for direct messages and mentions"),
      bool("enable_sounds", "Sound for direct messages and mentions"),
      select(
        "notification_sound",
        "Notification sound",
        ["zulip", "ding", "chime", "bright", "subtle", "swish", "tintong", "up", "down", "none"].map((s) => [s, s === "none" ? "None" : s] as const),
      ),
      bool("pm_content_in_desktop_notifications", "Include the content of direct messages in desktop notifications"),
      select("desktop_icon_count_display", "Unread count badge", [[1, "All unread messages"], [2, "Direct messages, mentions and followed topics"], [3, "Direct messages and mentions"], [4, "None"]]),
      bool("enable_offline_push_notifications", "Mobile notifications when I'm offline"),
      bool("enable_online_push_notifications", "Mobile notifications even when I'm online"),
    ],
  },
  {
    id: "email",
    title: "Email",
    settings: [
      bool("enable_offline_email_notifications", "Email notifications when I'm offline"),
      select("email_notifications_batching_period_seconds", "Delay before sending notification emails", [
        [120, "2 minutes"],
        [300, "5 minutes"],
        [600, "10 minutes"],
        [1800, "30 minutes"],
        [3600, "1 hour"],
        [21600, "6 hours"],
        [86400, "1 day"],
        [604800, "1 week"],
      ]),
      bool("message_content_in_email_notifications", "Include message content in notification emails"),
      select("realm_name_in_email_notifications_policy", "Organization name in the subject of notification emails", [[1, "Automatic"], [2, "Always"], [3, "Never"]]),
      bool("enable_digest_emails", "Send digest emails when I'm away"),
      bool("enable_login_emails", "Email me about new logins to my account", true),
      bool("enable_marketing_emails", "Send me the low-traffic newsletter", true),
    ],
  },
];

export const PRIVACY_GROUPS: readonly SettingGroup[] = [
  {
    id: "privacy",
    title: "Privacy",
    settings: [
      select("email_address_visibility", "Who can see my email address", [
        [1, "Admins, moderators, members and guests"],
        [2, "Admins, moderators and members"],
        [5, "Admins and moderators"],
        [3, "Admins only"],
        [4, "Nobody"],
      ]),
      bool("presence_enabled", "Display my availability to other users"),
      bool("send_read_receipts", "Let others see when I've read messages"),
      bool("send_private_typing_notifications", "Let recipients see when I'm typing direct messages"),
      bool("send_stream_typing_notifications", "Let recipients see when I'm typing channel messages"),
      // Spec 4.2: the server delivers typing events only to users with this enabled.
      bool("receives_typing_notifications", "Show when other users are typing"),
    ],
  },
];

/** Every group, for the organization's defaults page (personal-only settings left out). */
export const REALM_DEFAULT_GROUPS: readonly SettingGroup[] = [...PREFERENCE_GROUPS, ...NOTIFICATION_GROUPS, ...PRIVACY_GROUPS].map((group) => ({
  ...group,
  settings: group.settings.filter((s) => !s.personalOnly),
}));
