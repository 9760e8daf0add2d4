/**
 * The shapes of Zulip API objects the web client reads (zulip-openapi.yaml): users, channels,
 * subscriptions, messages, unread data and events. Only the fields the client uses are typed;
 * the rest stay available through the index signatures.
 */

export interface User {
  user_id: number;
  email: string;
  delivery_email?: string | null;
  full_name: string;
  avatar_url?: string | null;
  role: number;
  is_active: boolean;
  is_bot: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_guest?: boolean;
  timezone?: string;
  date_joined?: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  [field: string]: unknown;
}

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  rendered_description?: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_archived?: boolean;
  folder_id?: number | null;
  [field: string]: unknown;
}

export interface Subscription extends Channel {
  color: string;
  in_home_view?: boolean;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications?: boolean | null;
}

export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  rendered_description?: string;
  order?: number;
  is_archived: boolean;
  [field: string]: unknown;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";
  user_id: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  avatar_url?: string | null;
  type: "stream" | "private";
  stream_id?: number;
  subject: string;
  display_recipient: string | DisplayRecipient[];
  content: string;
  content_type?: string;
  timestamp: number;
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  reactions: Reaction[];
  flags: string[];
  /** Search results only: the content and topic with matches in `<span class="highlight">`. */
  match_content?: string;
  match_subject?: string;
  [field: string]: unknown;
}

export interface TopicInfo {
  name: string;
  max_id: number;
}

export interface UnreadStreamEntry {
  stream_id: number;
  topic: string;
  unread_message_ids: number[];
}

export interface UnreadDmEntry {
  other_user_id: number;
  unread_message_ids: number[];
}

export interface UnreadHuddleEntry {
  user_ids_string: string;
  unread_message_ids: number[];
}

export interface UnreadMsgs {
  count: number;
  pms: UnreadDmEntry[];
  streams: UnreadStreamEntry[];
  huddles: UnreadHuddleEntry[];
  mentions: number[];
  old_unreads_missing: boolean;
}

export interface RecentDirectConversation {
  max_message_id: number;
  user_ids: number[];
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  is_system_group: boolean;
  deactivated?: boolean;
  [field: string]: unknown;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  [field: string]: unknown;
}

/** POST /register's response, as far as the client reads it (all event types requested). */
export interface RegisterResponse {
  queue_id: string;
  last_event_id: number;
  zulip_feature_level: number;
  zulip_version: string;
  user_id: number;
  email: string;
  full_name: string;
  avatar_url?: string;
  is_admin: boolean;
  is_owner: boolean;
  is_moderator?: boolean;
  is_guest: boolean;
  role: number;
  realm_users: User[];
  realm_non_active_users?: User[];
  cross_realm_bots?: User[];
  subscriptions: Subscription[];
  unsubscribed: Subscription[];
  never_subscribed: Channel[];
  channel_folders?: ChannelFolder[];
  unread_msgs: UnreadMsgs;
  starred_messages: number[];
  recent_private_conversations: RecentDirectConversation[];
  user_settings: Record<string, unknown>;
  realm_user_groups?: UserGroup[];
  realm_emoji?: Record<string, RealmEmoji>;
  max_message_id: number;
  server_typing_started_wait_period_milliseconds: number;
  server_typing_stopped_wait_period_milliseconds: number;
  server_typing_started_expiry_period_milliseconds: number;
  max_file_upload_size_mib?: number;
  realm_name?: string;
  [field: string]: unknown;
}

/** One event from GET /events (zulip-openapi.yaml /events). */
export interface ServerEvent {
  id: number;
  type: string;
  op?: string;
  [field: string]: unknown;
}
