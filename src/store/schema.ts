/**
 * Row types of every table (see migrations/ for the DDL). Booleans are real booleans on both
 * engines: the SQLite adapter converts the columns named in BOOLEAN_COLUMNS.
 */
import type { Generated } from "kysely";

type Id = Generated<number>;
type GroupId = number | null;

export interface RealmTable {
  id: Id;
  string_id: string;
  name: string;
  description: Generated<string>;
  date_created: number;
  org_type: Generated<number>;
  waiting_period_threshold: Generated<number>;
  message_content_edit_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  message_retention_days: number | null;
  topics_policy: Generated<string>;
  max_invites: number | null;
  settings: Generated<string>;
  deactivated: Generated<boolean>;
  invite_required: Generated<boolean>;
  emails_restricted_to_domains: Generated<boolean>;
  allow_edit_history: Generated<boolean>;
  allow_message_editing: Generated<boolean>;
  enable_spectator_access: Generated<boolean>;
  password_auth_enabled: Generated<boolean>;
  can_access_all_users_group_id: GroupId;
  can_add_custom_emoji_group_id: GroupId;
  can_add_subscribers_group_id: GroupId;
  can_create_bots_group_id: GroupId;
  can_create_groups_id: GroupId;
  can_create_private_channel_group_id: GroupId;
  can_create_public_channel_group_id: GroupId;
  can_create_web_public_channel_group_id: GroupId;
  can_create_write_only_bots_group_id: GroupId;
  can_delete_any_message_group_id: GroupId;
  can_delete_own_message_group_id: GroupId;
  can_invite_users_group_id: GroupId;
  can_manage_all_groups_id: GroupId;
  can_manage_billing_group_id: GroupId;
  can_mention_many_users_group_id: GroupId;
  can_move_messages_between_channels_group_id: GroupId;
  can_move_messages_between_topics_group_id: GroupId;
  can_resolve_topics_group_id: GroupId;
  can_set_delete_message_policy_group_id: GroupId;
  can_set_topics_policy_group_id: GroupId;
  can_summarize_topics_group_id: GroupId;
  create_multiuse_invite_group_id: GroupId;
  direct_message_initiator_group_id: GroupId;
  direct_message_permission_group_id: GroupId;
}

export interface UserTable {
  id: Id;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  date_joined: number;
  last_login: number | null;
  timezone: Generated<string>;
  avatar_source: Generated<string>;
  avatar_version: Generated<number>;
  api_key: string;
  password_hash: string | null;
  default_sending_channel_id: number | null;
  default_events_register_channel_id: number | null;
  settings: Generated<string>;
  is_active: Generated<boolean>;
  is_bot: Generated<boolean>;
  is_mirror_dummy: Generated<boolean>;
  is_imported_stub: Generated<boolean>;
  is_deleted: Generated<boolean>;
  can_change_user_emails: Generated<boolean>;
  /** Zulip's can_create_users (FL 36): POST /users; granted by server operators only. */
  can_create_users: Generated<boolean>;
  is_billing_admin: Generated<boolean>;
  default_all_public_streams: Generated<boolean>;
}

export interface UserGroupTable {
  id: Id;
  realm_id: number;
  name: string | null;
  description: Generated<string>;
  date_created: number;
  creator_id: number | null;
  is_system_group: Generated<boolean>;
  deactivated: Generated<boolean>;
  can_add_members_group_id: GroupId;
  can_join_group_id: GroupId;
  can_leave_group_id: GroupId;
  can_manage_group_id: GroupId;
  can_mention_group_id: GroupId;
  can_remove_members_group_id: GroupId;
}

export interface ChannelFolderTable {
  id: Id;
  realm_id: number;
  name: string;
  description: Generated<string>;
  rendered_description: Generated<string>;
  order: Generated<number>;
  creator_id: number | null;
  date_created: number;
  is_archived: Generated<boolean>;
}

export interface ChannelTable {
  id: Id;
  realm_id: number;
  name: string;
  description: Generated<string>;
  rendered_description: Generated<string>;
  date_created: number;
  creator_id: number | null;
  recipient_id: number | null;
  message_retention_days: number | null;
  folder_id: number | null;
  topics_policy: Generated<string>;
  first_message_id: number | null;
  invite_only: Generated<boolean>;
  is_web_public: Generated<boolean>;
  history_public_to_subscribers: Generated<boolean>;
  deactivated: Generated<boolean>;
  is_recently_active: Generated<boolean>;
  can_add_subscribers_group_id: GroupId;
  can_administer_channel_group_id: GroupId;
  can_create_topic_group_id: GroupId;
  can_delete_any_message_group_id: GroupId;
  can_delete_own_message_group_id: GroupId;
  can_move_messages_out_of_channel_group_id: GroupId;
  can_move_messages_within_channel_group_id: GroupId;
  can_remove_subscribers_group_id: GroupId;
  can_resolve_topics_group_id: GroupId;
  can_send_message_group_id: GroupId;
  can_subscribe_group_id: GroupId;
}

export interface SubscriptionTable {
  id: Id;
  user_id: number;
  recipient_id: number;
  color: Generated<string>;
  active: Generated<boolean>;
  is_user_active: Generated<boolean>;
  pin_to_top: Generated<boolean>;
  is_muted: Generated<boolean>;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

export interface MessageTable {
  id: Id;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  type: number;
  subject: Generated<string>;
  content: string;
  rendered_content: string;
  date_sent: number;
  sending_client: Generated<string>;
  last_edit_time: number | null;
  last_moved_time: number | null;
  has_attachment: Generated<boolean>;
  has_image: Generated<boolean>;
  has_link: Generated<boolean>;
  is_me_message: Generated<boolean>;
}

export interface DB {
  realms: RealmTable;
  users: UserTable;
  user_groups: UserGroupTable;
  user_group_members: { group_id: number; user_id: number };
  user_group_subgroups: { supergroup_id: number; subgroup_id: number };
  realm_user_defaults: { realm_id: number; settings: Generated<string> };
  sessions: { key: string; user_id: number; realm_id: number; auth_hash: string; created_at: number; expires_at: number };
  audit_log: {
    id: Id;
    realm_id: number;
    acting_user_id: number | null;
    modified_user_id: number | null;
    modified_channel_id: number | null;
    modified_group_id: number | null;
    event_type: string;
    event_time: number;
    extra_data: Generated<string>;
  };
  channel_folders: ChannelFolderTable;
  recipients: { id: Id; type: number; type_id: number };
  direct_message_groups: { id: Id; realm_id: number; member_key: string; group_size: number };
  channels: ChannelTable;
  default_channels: { realm_id: number; channel_id: number };
  subscriptions: SubscriptionTable;
  messages: MessageTable;
  user_messages: { user_id: number; message_id: number; flags: Generated<number> };
  reactions: { id: Id; message_id: number; user_id: number; emoji_name: string; emoji_code: string; reaction_type: string };
  message_edits: {
    id: Id;
    message_id: number;
    user_id: number | null;
    timestamp: number;
    prev_content: string | null;
    prev_rendered_content: string | null;
    prev_topic: string | null;
    topic: string | null;
    prev_channel_id: number | null;
    channel_id: number | null;
  };
  submessages: { id: Id; message_id: number; sender_id: number; msg_type: string; content: string };
  /** Messages sent to a channel per UTC day (migration 0010, channel-traffic.ts). */
  channel_message_counts: { channel_id: number; day: number; count: number };
  user_topics: {
    id: Id;
    user_id: number;
    channel_id: number;
    topic_name: string;
    visibility_policy: number;
    last_updated: number;
  };
  custom_profile_fields: {
    id: Id;
    realm_id: number;
    name: string;
    hint: Generated<string>;
    field_type: number;
    field_data: Generated<string>;
    order: Generated<number>;
    display_in_profile_summary: Generated<boolean>;
    required: Generated<boolean>;
    editable_by_user: Generated<boolean>;
    use_for_user_matching: Generated<boolean>;
  };
  custom_profile_field_values: { id: Id; user_id: number; field_id: number; value: string; rendered_value: string | null };
  linkifiers: {
    id: Id;
    realm_id: number;
    pattern: string;
    url_template: string;
    example_input: string | null;
    reverse_template: string | null;
    alternative_url_templates: Generated<string>;
    order: Generated<number>;
  };
  realm_emoji: {
    id: Id;
    realm_id: number;
    name: string;
    author_id: number | null;
    file_name: string;
    is_animated: Generated<boolean>;
    deactivated: Generated<boolean>;
  };
  invitations: {
    id: Id;
    realm_id: number;
    email: string | null;
    referred_by_id: number;
    invited_as: Generated<number>;
    invited_at: number;
    expires_at: number | null;
    status: Generated<number>;
    channel_ids: Generated<string>;
    group_ids: Generated<string>;
    welcome_message_custom_text: string | null;
    confirmation_key: string;
    is_multiuse: Generated<boolean>;
    include_realm_default_subscriptions: Generated<boolean>;
    notify_referrer_on_join: Generated<boolean>;
  };
  user_status: {
    user_id: number;
    status_text: Generated<string>;
    emoji_name: Generated<string>;
    emoji_code: Generated<string>;
    reaction_type: Generated<string>;
    timestamp: number;
  };
  alert_words: { id: Id; user_id: number; word: string };
  muted_users: { user_id: number; muted_user_id: number; date_muted: number };
  presence: {
    user_id: number;
    realm_id: number;
    last_active_time: number | null;
    last_connected_time: number | null;
    last_update_id: Generated<number>;
  };
  drafts: { id: Id; user_id: number; type: string; to: Generated<string>; topic: Generated<string>; content: string; timestamp: number };
  attachments: {
    id: Id;
    realm_id: number;
    owner_id: number;
    path_id: string;
    file_name: string;
    size: number;
    content_type: string | null;
    create_time: number;
  };
  attachment_messages: { attachment_id: number; message_id: number };
  image_attachments: {
    id: Id;
    attachment_id: number;
    original_width_px: number;
    original_height_px: number;
    frames: number;
    content_type: string;
    thumbnails: string;
  };
  push_devices: {
    id: Id;
    user_id: number;
    kind: string;
    token: string;
    app_id: string | null;
    public_key: string | null;
    date_created: number;
  };
  client_devices: {
    id: Id;
    user_id: number;
    push_key: string | null;
    push_key_id: number | null;
    push_token_id: string | null;
    pending_push_token_id: string | null;
    push_token_last_updated_timestamp: number | null;
    push_token_kind: string | null;
    push_registration_error_code: string | null;
    date_created: number;
  };
  saved_snippets: { id: Id; user_id: number; title: string; content: string; date_created: number };
  /** A user's left-sidebar views (migration 0016, FL 390). */
  navigation_views: { id: Id; user_id: number; fragment: string; is_pinned: Generated<boolean>; name: string | null };
  realm_playgrounds: { id: Id; realm_id: number; name: string; pygments_language: string; url_template: string };
  realm_domains: { id: Id; realm_id: number; domain: string; allow_subdomains: Generated<boolean> };
  /** An outgoing-webhook bot's service (Zulip's Service): interface 1 generic, 2 Slack-compatible. */
  bot_services: { id: Id; bot_id: number; name: string; base_url: string; token: string; interface: number };
  bot_storage: { id: Id; bot_id: number; key_hash: string; key: string; value: string; size: number };
  channel_email_addresses: { id: Id; channel_id: number; creator_id: number; sender_id: number | null; email_token: string; date_created: number };
  /** Messages the server sends later: scheduled messages and reminders (migration 0012). */
  scheduled_messages: {
    id: Id;
    realm_id: number;
    sender_id: number;
    /** 1: a scheduled message (Zulip's SEND_LATER); 2: a reminder (REMIND). */
    delivery_type: number;
    recipient_type: string;
    channel_id: number | null;
    to_user_ids: Generated<string>;
    topic: Generated<string>;
    content: string;
    rendered_content: string;
    sending_client: string;
    scheduled_timestamp: number;
    read_by_sender: Generated<boolean>;
    delivered: Generated<boolean>;
    failed: Generated<boolean>;
    failure_message: string | null;
    delivered_message_id: number | null;
    reminder_target_message_id: number | null;
    reminder_note: string | null;
  };
  scheduled_message_attachments: { scheduled_message_id: number; attachment_id: number };
  /** Data exports of a realm (migration 0015, Zulip's RealmExport). */
  realm_exports: {
    id: Id;
    realm_id: number;
    acting_user_id: number | null;
    export_type: string;
    status: number;
    date_requested: number;
    date_started: number | null;
    date_succeeded: number | null;
    date_failed: number | null;
    date_deleted: number | null;
    path_id: string | null;
    size: number | null;
    failure: string | null;
  };
  /** Missed-message emails and mobile pushes waiting to be sent (migration 0018, pending-notifications.ts). */
  pending_notifications: {
    id: Id;
    user_id: number;
    message_id: number;
    /** "email" | "push" | "remove" */
    kind: string;
    trigger: Generated<string>;
    mentioned_group_id: number | null;
    due_at: number;
    attempts: Generated<number>;
    claimed_until: number | null;
    claim_token: string | null;
  };
  /** A personal setting the user changed themselves (migration 0023, user-setting-edits.ts). */
  user_setting_edits: { user_id: number; setting: string };
  /** A user's OAuth token with a video call provider, e.g. "webex" (migration 0019, video-call-tokens.ts). */
  video_call_tokens: { user_id: number; provider: string; token: string };
  /** Messages whose push notification a user's devices show (migration 0018). */
  active_push_notifications: { user_id: number; message_id: number };
  /** Digest periods queued per realm (migration 0020). */
  digest_runs: { realm_id: number; period: number; created_at: number };
  /** Until when a user may hold a message event queue on some process (migration 0020). */
  user_message_queues: { user_id: number; until: number };
  /** Bumped by triggers on every change of a users or realms row (migration 0006, auth-rows.ts). */
  row_versions: { table_name: string; row_id: number; version: number };
  deployment: { id: string };
}

/**
 * Every boolean column name in the schema. SQLite returns them as 0/1; the SQLite adapter turns
 * these names back into booleans. Keep in step with the migrations (a store test checks it).
 */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set([
  "deactivated", "invite_required", "emails_restricted_to_domains", "allow_edit_history",
  "allow_message_editing", "enable_spectator_access", "password_auth_enabled",
  "is_active", "is_bot", "is_mirror_dummy", "is_imported_stub", "is_deleted", "can_change_user_emails", "can_create_users",
  "is_billing_admin", "default_all_public_streams", "is_system_group", "is_archived",
  "invite_only", "is_web_public", "history_public_to_subscribers", "is_recently_active",
  "active", "is_user_active", "pin_to_top", "is_muted", "desktop_notifications", "audible_notifications",
  "push_notifications", "email_notifications", "wildcard_mentions_notify",
  "has_attachment", "has_image", "has_link", "is_me_message",
  "display_in_profile_summary", "required", "editable_by_user", "use_for_user_matching", "is_animated",
  "is_multiuse", "include_realm_default_subscriptions", "notify_referrer_on_join",
  "read_by_sender", "delivered", "failed", "is_pinned", "allow_subdomains",
]);
