/**
 * What the official mobile app (zulip-flutter, read at its August 2026 sources: lib/api/model and
 * lib/api/route, their generated *.g.dart parsers) requires of Parley's answers, written down as
 * data in this project's own terms. `needs` are keys its parsers read without a null check: they
 * must be present, non-null and of the kind given, or the whole answer fails to parse. `mayHave`
 * are keys read with one: absent or null is fine, anything else must be of the kind. Enums list
 * the values accepted where the parser has no fallback for unknown ones; where it has one, any
 * value of the type passes and the kind says just "int" or "string".
 */
import assert from "node:assert/strict";

export type Kind =
  | "int" | "number" | "string" | "bool" | "any"
  | "url" // parsed with Uri.parse, resolved against the realm URL
  | "absolute-url" // fetched as it stands (http.Request needs a scheme and host)
  | "color" // "#rrggbb", lowercase hex
  | "group-setting" // a group id, or {direct_members, direct_subgroups}
  | { enum: ReadonlyArray<string | number> }
  | { listOf: Kind }
  | { mapOf: Kind; intKeys?: boolean }
  | Model;

export interface Model {
  needs: Record<string, Kind>;
  mayHave?: Record<string, Kind>;
  /** A rule across keys, as a check returning the problem or null. */
  rule?: (value: Record<string, unknown>) => string | null;
}

/** The reaction types the app's parser knows; any other value makes the answer unparseable. */
export const REACTION_TYPES = ["unicode_emoji", "realm_emoji", "zulip_extra_emoji"] as const;

/** The wildcard-mention policies the app accepts (no "unknown" fallback in its enum). */
export const WILDCARD_MENTION_POLICIES = [1, 2, 3, 5, 6, 7] as const;

const ints: Kind = { listOf: "int" };

export const SERVER_SETTINGS: Model = {
  needs: {
    authentication_methods: { needs: { ldap: "bool" } },
    external_authentication_methods: { listOf: { needs: { name: "string", display_name: "string", login_url: "string", signup_url: "string" }, mayHave: { display_icon: "string" } } },
    zulip_feature_level: "int", zulip_version: "string", zulip_merge_base: "string",
    push_notifications_enabled: "bool", is_incompatible: "bool", email_auth_enabled: "bool", require_email_format_usernames: "bool",
    realm_uri: "url", realm_name: "string", realm_icon: "url", realm_description: "string", realm_web_public_access_enabled: "bool",
  },
};

export const FETCH_API_KEY: Model = { needs: { api_key: "string", email: "string" }, mayHave: { user_id: "int" } };

export const USER: Model = {
  needs: { user_id: "int", email: "string", full_name: "string", date_joined: "string", is_bot: "bool", role: "int", timezone: "string", avatar_version: "int" },
  mayHave: {
    delivery_email: "string", is_active: "bool", bot_type: "int", bot_owner_id: "int", avatar_url: "url", is_system_bot: "bool",
    profile_data: { mapOf: { needs: { value: "string" }, mayHave: { rendered_value: "string" } }, intKeys: true },
  },
};

const CHANNEL_NEEDS: Record<string, Kind> = {
  stream_id: "int", name: "string", description: "string", rendered_description: "string", date_created: "int",
  invite_only: "bool", is_web_public: "bool", history_public_to_subscribers: "bool",
};
const CHANNEL_MAY_HAVE: Record<string, Kind> = {
  is_archived: "bool", first_message_id: "int", message_retention_days: "int", topics_policy: "string", stream_post_policy: { enum: [1, 2, 3, 4] },
  folder_id: "int", can_add_subscribers_group: "group-setting", can_delete_any_message_group: "group-setting",
  can_delete_own_message_group: "group-setting", can_send_message_group: "group-setting", can_subscribe_group: "group-setting",
  is_recently_active: "bool", stream_weekly_traffic: "int",
};

export const CHANNEL: Model = { needs: CHANNEL_NEEDS, mayHave: CHANNEL_MAY_HAVE };

export const SUBSCRIPTION: Model = {
  needs: { ...CHANNEL_NEEDS, pin_to_top: "bool", is_muted: "bool", color: "color" },
  mayHave: { ...CHANNEL_MAY_HAVE, desktop_notifications: "bool", email_notifications: "bool", wildcard_mentions_notify: "bool", push_notifications: "bool", audible_notifications: "bool" },
};

/** A status's emoji counts only when all three fields are non-empty; then its type must parse. */
const statusEmojiRule = (s: Record<string, unknown>) => {
  const parts = [s.emoji_name, s.emoji_code, s.reaction_type];
  if (parts.some((p) => p === undefined || p === null || p === "")) return null;
  return (REACTION_TYPES as readonly unknown[]).includes(s.reaction_type) ? null : `reaction_type ${String(s.reaction_type)} is not one the app knows`;
};

export const REACTION: Model = { needs: { emoji_name: "string", emoji_code: "string", reaction_type: { enum: REACTION_TYPES }, user_id: "int" } };

export const SNAPSHOT: Model = {
  needs: {
    last_event_id: "int", zulip_feature_level: "int", zulip_version: "string", zulip_merge_base: "string",
    alert_words: { listOf: "string" },
    custom_profile_fields: { listOf: { needs: { id: "int", type: "int", order: "int", name: "string", hint: "string", field_data: "string" }, mayHave: { display_in_profile_summary: "bool" } } },
    max_stream_name_length: "int", max_topic_length: "int",
    server_presence_ping_interval_seconds: "int", server_presence_offline_threshold_seconds: "int",
    muted_users: { listOf: { needs: { id: "int" } } },
    presences: { mapOf: { needs: { active_timestamp: "int", idle_timestamp: "int" } }, intKeys: true },
    realm_emoji: { mapOf: { needs: { id: "string", name: "string", source_url: "string", deactivated: "bool" }, mayHave: { still_url: "string", author_id: "int" } } },
    realm_user_groups: { listOf: { needs: { id: "int", members: ints, direct_subgroup_ids: ints, name: "string", description: "string", is_system_group: "bool" }, mayHave: { deactivated: "bool" } } },
    recent_private_conversations: { listOf: { needs: { max_message_id: "int", user_ids: ints } } },
    subscriptions: { listOf: SUBSCRIPTION },
    unread_msgs: {
      needs: {
        count: "int",
        pms: { listOf: { needs: { other_user_id: "int", unread_message_ids: ints } } },
        streams: { listOf: { needs: { topic: "string", stream_id: "int", unread_message_ids: ints } } },
        huddles: { listOf: { needs: { user_ids_string: "string", unread_message_ids: ints } } },
        mentions: ints,
        old_unreads_missing: "bool",
      },
    },
    starred_messages: ints,
    streams: { listOf: CHANNEL },
    user_status: { mapOf: { needs: {}, mayHave: { status_text: "string", emoji_name: "string", emoji_code: "string", reaction_type: "string" }, rule: statusEmojiRule }, intKeys: true },
    user_settings: {
      needs: { starred_message_counts: "bool", display_emoji_reaction_users: "bool", emojiset: "string", presence_enabled: "bool" },
      mayHave: { twenty_four_hour_time: "bool", web_inbox_show_channel_folders: "bool" },
    },
    user_topics: { listOf: { needs: { stream_id: "int", topic_name: "string", last_updated: "int", visibility_policy: "int" } } },
    realm_wildcard_mention_policy: { enum: WILDCARD_MENTION_POLICIES },
    realm_name: "string", realm_waiting_period_threshold: "int", realm_allow_message_editing: "bool", realm_enable_read_receipts: "bool",
    realm_icon_url: "url", realm_presence_disabled: "bool",
    realm_default_external_accounts: { mapOf: { needs: { name: "string", text: "string", hint: "string", url_pattern: "string" } } },
    max_file_upload_size_mib: "int",
    server_emoji_data_url: "absolute-url",
    event_queue_longpoll_timeout_seconds: "int",
    realm_users: { listOf: USER }, realm_non_active_users: { listOf: USER }, cross_realm_bots: { listOf: USER },
  },
  mayHave: {
    queue_id: "string",
    server_typing_started_expiry_period_milliseconds: "int", server_typing_stopped_wait_period_milliseconds: "int", server_typing_started_wait_period_milliseconds: "int",
    saved_snippets: { listOf: { needs: { id: "int", title: "string", content: "string", date_created: "int" } } },
    channel_folders: { listOf: { needs: { id: "int", name: "string", description: "string", rendered_description: "string", is_archived: "bool" }, mayHave: { order: "int", date_created: "int", creator_id: "int" } } },
    devices: { mapOf: { needs: {}, mayHave: { push_key_id: "int", push_token_id: "string", pending_push_token_id: "string", push_token_last_updated_timestamp: "int", push_registration_error_code: "string" } }, intKeys: true },
    realm_can_delete_any_message_group: "group-setting", realm_can_delete_own_message_group: "group-setting",
    realm_delete_own_message_policy: { enum: [1, 2, 3, 4, 5] }, realm_topics_policy: "string", realm_mandatory_topics: "bool",
    realm_message_content_delete_limit_seconds: "int", realm_message_content_edit_limit_seconds: "int",
    server_thumbnail_formats: { listOf: { needs: { name: "string", max_width: "int", max_height: "int", animated: "bool", format: "string" } } },
    realm_moderation_request_channel_id: "int", realm_empty_topic_display_name: "string",
    server_report_message_types: { listOf: { needs: { key: "string", name: "string" } } },
  },
};

const MESSAGE_NEEDS: Record<string, Kind> = {
  type: { enum: ["stream", "private"] }, client: "string", content: "string", content_type: "string", id: "int", is_me_message: "bool",
  reactions: { listOf: REACTION }, sender_email: "string", sender_full_name: "string", sender_id: "int", sender_realm_str: "string",
  timestamp: "int", flags: { listOf: "string" },
};
const MESSAGE_MAY_HAVE: Record<string, Kind> = { last_edit_timestamp: "int", match_content: "string", match_subject: "string", submessages: { listOf: "any" }, edit_history: { listOf: "any" } };

/** A message by its type: channel messages name their channel and topic, DMs their participants. */
export function messageModel(message: Record<string, unknown>): Model {
  const own: Record<string, Kind> =
    message.type === "stream" ? { stream_id: "int", subject: "string", display_recipient: "string" } : { display_recipient: { listOf: { needs: { id: "int" } } } };
  return { needs: { ...MESSAGE_NEEDS, ...own }, mayHave: MESSAGE_MAY_HAVE };
}

export const GET_MESSAGES: Model = { needs: { anchor: "int", found_newest: "bool", found_oldest: "bool", found_anchor: "bool", history_limited: "bool", messages: { listOf: "any" } } };
export const SEND_MESSAGE: Model = { needs: { id: "int" } };
export const GET_EVENTS: Model = { needs: { events: { listOf: { needs: { id: "int", type: "string" } } } }, mayHave: { queue_id: "string" } };
export const MESSAGE_EVENT: Model = { needs: { id: "int", message: "any", flags: { listOf: "string" } }, mayHave: { local_message_id: "string" } };
export const REACTION_EVENT: Model = {
  needs: { id: "int", op: { enum: ["add", "remove"] }, emoji_name: "string", emoji_code: "string", reaction_type: { enum: REACTION_TYPES }, user_id: "int", message_id: "int" },
};
export const UPDATE_PRESENCE: Model = {
  needs: {},
  mayHave: { presence_last_update_id: "int", server_timestamp: "number", presences: { mapOf: { needs: { active_timestamp: "int", idle_timestamp: "int" } }, intKeys: true } },
};
export const SERVER_EMOJI_DATA: Model = { needs: { code_to_names: { mapOf: { listOf: "string" } } } };

/** Every way `value` fails `kind`, with the path to it. */
export function problems(value: unknown, kind: Kind, path = ""): string[] {
  const fail = (what: string) => [`${path || "(answer)"}: ${what}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  if (typeof kind === "string") {
    switch (kind) {
      case "any": return [];
      case "int": return Number.isInteger(value) ? [] : fail("not an integer");
      case "number": return typeof value === "number" ? [] : fail("not a number");
      case "string": return typeof value === "string" ? [] : fail("not a string");
      case "bool": return typeof value === "boolean" ? [] : fail("not a boolean");
      case "url": return typeof value === "string" && URL.canParse(value, "https://realm.example") ? [] : fail("not a URL");
      case "absolute-url": return typeof value === "string" && /^https?:\/\//.test(value) && URL.canParse(value) ? [] : fail("not an absolute http(s) URL");
      case "color": return typeof value === "string" && /^#[0-9a-f]{6}$/.test(value) ? [] : fail("not a #rrggbb color");
      case "group-setting": {
        if (Number.isInteger(value)) return [];
        const g = value as Record<string, unknown>;
        return g && typeof g === "object" ? [...problems(g.direct_members, ints, `${path}.direct_members`), ...problems(g.direct_subgroups, ints, `${path}.direct_subgroups`)] : fail("not a group-setting value");
      }
    }
  }
  if ("enum" in kind) return kind.enum.includes(value as never) ? [] : fail(`not one of ${JSON.stringify(kind.enum)}`);
  if ("listOf" in kind) return Array.isArray(value) ? value.flatMap((v, i) => problems(v, kind.listOf, `${path}[${i}]`)) : fail("not a list");
  if (!value || typeof value !== "object" || Array.isArray(value)) return fail("not an object");
  const obj = value as Record<string, unknown>;
  if ("mapOf" in kind) {
    return Object.entries(obj).flatMap(([k, v]) => [...(kind.intKeys && !/^-?\d+$/.test(k) ? [`${path}: key ${k} is not an integer`] : []), ...problems(v, kind.mapOf, `${path}.${k}`)]);
  }
  const out: string[] = [];
  for (const [key, k] of Object.entries(kind.needs)) {
    if (obj[key] === undefined || obj[key] === null) out.push(`${path}.${key}: required, missing`);
    else out.push(...problems(obj[key], k, `${path}.${key}`));
  }
  for (const [key, k] of Object.entries(kind.mayHave ?? {})) if (obj[key] !== undefined && obj[key] !== null) out.push(...problems(obj[key], k, `${path}.${key}`));
  const broken = kind.rule?.(obj);
  if (broken) out.push(`${path}: ${broken}`);
  return out;
}

/** Asserts the app could parse `value` as `model`. */
export function assertParses(value: unknown, model: Kind, what: string): void {
  assert.deepEqual(problems(value, model), [], `the mobile app could not parse ${what}`);
}
