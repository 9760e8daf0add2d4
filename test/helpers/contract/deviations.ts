/**
 * THE one place where Parley's answers and events may differ from Zulip's current OpenAPI document
 * (FL 378). Nothing else relaxes the contract (./apply-deviations.ts applies these, and checks that
 * each still changes something). Four lists:
 * - NEWER: fields, values and shapes Zulip added after FL 378 (Parley serves FL 496), with the level
 *   from Zulip's API changelog (api_docs/changelog.md up to FL 435, and the FL-420 API description);
 * - UNDOCUMENTED: what Zulip itself sends but the document omits or contradicts, with the source;
 * - DIFFERS: deliberate Parley differences, with the reason (also in docs/COMPATIBILITY.md);
 * - PENDING: violations owned by other items of issue 15, fixed on other branches; the lead deletes
 *   each entry when that branch is merged, and the contract then holds Parley to the document there.
 */
import type { Deviation, Target } from "./apply-deviations.js";
import type { Json } from "./document.js";
import { channelFolder, navigationView, reminder } from "./newer-schemas.js";

export type { Deviation } from "./apply-deviations.js";

const int: Json = { type: "integer" };
const str: Json = { type: "string" };
const bool: Json = { type: "boolean" };
const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: "null" }] });
const groupSetting: Json = { $ref: "openapi#/components/schemas/GroupSettingValue" };

const REGISTER = { response: "POST /register", at: "allOf/1" };
const registerKey = (key: string): Target => ({ response: "POST /register", at: `allOf/1/properties/${key}` });

/** Every schema of a channel object: streams, subscriptions, and the register lists of both. */
const CHANNEL_OBJECTS: Target[] = [
  { component: "BasicChannel", at: "allOf/1" },
  { component: "Subscription" },
  { response: "GET /streams", at: "allOf/1/properties/streams/items/allOf/1" },
  { response: "POST /register", at: "allOf/1/properties/never_subscribed/items/allOf/1" },
];
/** Every schema of a user object. */
const USER_OBJECTS: Target[] = [
  { component: "User", at: "allOf/1" },
  { response: "GET /users/me", at: "allOf/1" },
  { response: "POST /register", at: "allOf/1/properties/cross_realm_bots/items/allOf/1" },
];
/** Every schema of a linkifier object. */
const LINKIFIERS: Target[] = [
  { response: "GET /realm/linkifiers", at: "allOf/1/properties/linkifiers/items" },
  registerKey("realm_linkifiers/items"),
  { event: "realm_linkifiers", at: "properties/realm_linkifiers/items" },
];
const SETTINGS_OBJECTS: Target[] = [registerKey("user_settings"), registerKey("realm_user_settings_defaults")];

function fields(kind: "newer", level: number | string, why: string, targets: Target[], properties: Record<string, Json>): Deviation[] {
  return targets.map((target) => ({ kind, level, why, target, change: { addProperties: properties } }));
}


export const NEWER: Deviation[] = [
  ...fields("newer", 385, "resolved_topic_notice_auto_read_policy user setting", SETTINGS_OBJECTS, {
    resolved_topic_notice_auto_read_policy: { enum: ["always", "except_followed", "never"] },
  }),
  ...fields("newer", 389, "channel folders: a channel's folder_id; register's channel_folders", CHANNEL_OBJECTS, { folder_id: nullable(int) }),
  { kind: "newer", level: 389, why: "register's channel_folders", target: REGISTER, change: { addProperties: { channel_folders: { type: "array", items: channelFolder } } } },
  { kind: "newer", level: 390, why: "register's navigation_views", target: REGISTER, change: { addProperties: { navigation_views: { type: "array", items: navigationView } } } },
  ...fields("newer", 394, "a channel's subscriber_count", CHANNEL_OBJECTS, { subscriber_count: int }),
  ...fields("newer", 396, "channel settings can_move_messages_out_of_channel_group and can_move_messages_within_channel_group", CHANNEL_OBJECTS, {
    can_move_messages_out_of_channel_group: groupSetting,
    can_move_messages_within_channel_group: groupSetting,
  }),
  {
    kind: "newer", level: 397, why: "register's max_bulk_new_subscription_messages", target: REGISTER,
    change: { addProperties: { max_bulk_new_subscription_messages: int } },
  },
  {
    kind: "newer", level: 397, why: "subscribe answers new_subscription_messages_sent", target: { response: "POST /users/me/subscriptions", at: "allOf/1" },
    change: { addProperties: { new_subscription_messages_sent: bool } },
  },
  { kind: "newer", level: 399, why: "register's reminders (the user's undelivered message reminders)", target: REGISTER, change: { addProperties: { reminders: { type: "array", items: reminder } } } },
  { kind: "newer", level: 415, why: "register's max_reminder_note_length", target: REGISTER, change: { addProperties: { max_reminder_note_length: int } } },
  ...fields("newer", 402, "channel setting can_resolve_topics_group", CHANNEL_OBJECTS, { can_resolve_topics_group: groupSetting }),
  {
    kind: "newer", level: 404, why: "channel topics_policy value empty_topic_only", target: { component: "TopicsPolicy" },
    change: { addEnum: ["empty_topic_only"] },
  },
  ...fields("newer", 407, "channel settings can_delete_any_message_group and can_delete_own_message_group", CHANNEL_OBJECTS, {
    can_delete_any_message_group: groupSetting,
    can_delete_own_message_group: groupSetting,
  }),
  {
    kind: "newer", level: 407, why: "realm setting can_set_delete_message_policy_group", target: REGISTER,
    change: { addProperties: { realm_can_set_delete_message_policy_group: groupSetting } },
  },
  {
    kind: "newer", level: 410, why: "register's channel folder name and description limits", target: REGISTER,
    change: { addProperties: { max_channel_folder_name_length: int, max_channel_folder_description_length: int } },
  },
  {
    kind: "newer", level: 416, why: "realm setting welcome_message_custom_text (Welcome Bot's custom message)", target: REGISTER,
    change: { addProperties: { realm_welcome_message_custom_text: str } },
  },
  {
    kind: "newer", level: 419, why: "presence events in the modern format under the simplified_presence_events capability",
    target: { event: "presence" },
    change: {
      alternative: {
        type: "object", additionalProperties: false, required: ["id", "type", "presences"],
        properties: {
          id: int, type: { enum: ["presence"] },
          presences: { type: "object", additionalProperties: { $ref: "openapi#/components/schemas/ModernPresenceFormat" } },
        },
      },
    },
  },
  ...fields("newer", 431, "web_inbox_show_channel_folders display setting", SETTINGS_OBJECTS, { web_inbox_show_channel_folders: bool }),
  ...fields("newer", 433, "user objects' is_imported_stub", USER_OBJECTS, { is_imported_stub: bool }),
  {
    kind: "newer", level: 435, why: "register's server_report_message_types (message reports, Realm.REPORT_MESSAGE_REASONS)", target: REGISTER,
    change: { addProperties: { server_report_message_types: { type: "array", items: { type: "object", additionalProperties: false, required: ["key", "name"], properties: { key: str, name: str } } } } },
  },
  {
    kind: "newer", level: 468, why: "register's devices: the user's client devices by id (zerver/lib/events.py, zulip-flutter InitialSnapshot)", target: REGISTER,
    change: {
      addProperties: {
        devices: {
          type: "object",
          additionalProperties: {
            type: "object", additionalProperties: false,
            properties: {
              push_key_id: nullable(int), push_token_id: nullable(str), pending_push_token_id: nullable(str),
              push_token_last_updated_timestamp: nullable(int), push_registration_error_code: nullable(str),
            },
          },
        },
      },
    },
  },
  ...fields("newer", 472, "attachments' message_ids replace messages (create_time in seconds since FL 443)", [{ component: "Attachment" }], { message_ids: { type: "array", items: int } }),
  {
    kind: "newer", level: 438, why: "register's realm_owner_full_content_access (full exports without member consent, FL 449)", target: REGISTER,
    change: { addProperties: { realm_owner_full_content_access: bool } },
  },
  ...fields("newer", 430, "data export consents carry the user's email_address_visibility", [{ response: "GET /export/realm/consents", at: "allOf/1/properties/export_consents/items" }], {
    email_address_visibility: { enum: [1, 2, 3, 4, 5] },
  }),
  {
    kind: "newer", level: 449, why: "a data export's export_type is a string: public, full_with_consent or full_without_consent",
    target: { component: "RealmExport", at: "properties/export_type" },
    change: { alternative: { enum: ["public", "full_with_consent", "full_without_consent"] } },
  },
  ...fields("newer", 398, "web_left_sidebar_unreads_count_summary user setting", SETTINGS_OBJECTS, { web_left_sidebar_unreads_count_summary: bool }),
  ...fields("newer", 411, "web_left_sidebar_show_channel_folders user setting", SETTINGS_OBJECTS, { web_left_sidebar_show_channel_folders: bool }),
  { kind: "newer", level: 409, why: "realm setting require_e2ee_push_notifications", target: REGISTER, change: { addProperties: { realm_require_e2ee_push_notifications: bool } } },
  { kind: "newer", level: 434, why: "realm setting send_channel_events_messages", target: REGISTER, change: { addProperties: { realm_send_channel_events_messages: bool } } },
  { kind: "newer", level: 442, why: "register's tenor_api_key", target: REGISTER, change: { addProperties: { tenor_api_key: str } } },
  {
    kind: "newer", level: 453, why: "giphy_rating_options and realm_giphy_rating renamed gif_rating_policy_options and realm_gif_rating_policy", target: REGISTER,
    change: {
      addProperties: {
        gif_rating_policy_options: { type: "object", additionalProperties: { type: "object", additionalProperties: false, required: ["name", "id"], properties: { name: str, id: int } } },
        realm_gif_rating_policy: int,
      },
    },
  },
  ...fields("newer", 455, "custom profile fields' use_for_user_matching", [{ component: "CustomProfileField" }], { use_for_user_matching: bool }),
  { kind: "newer", level: 456, why: "realm setting default_avatar_source", target: REGISTER, change: { addProperties: { realm_default_avatar_source: { enum: ["G", "J"] } } } },
  { kind: "newer", level: 466, why: "register's realm_uuid", target: REGISTER, change: { addProperties: { realm_uuid: str } } },
  { kind: "newer", level: 469, why: "realm setting media_preview_size", target: REGISTER, change: { addProperties: { realm_media_preview_size: int } } },
  {
    kind: "newer", level: 488, why: "GET /server_settings' authentication_methods.discord", target: { response: "GET /server_settings", at: "allOf/1/properties/authentication_methods" },
    change: { addProperties: { discord: bool } },
  },
  { kind: "newer", level: 486, why: "register's klipy_api_key", target: REGISTER, change: { addProperties: { klipy_api_key: str } } },
  {
    kind: "newer", level: 475, why: "realm_user update of date_joined when an API-created account first logs in",
    target: { event: "realm_user/update" },
    change: {
      alternative: {
        type: "object", additionalProperties: false, required: ["id", "type", "op", "person"],
        properties: {
          id: int, type: { enum: ["realm_user"] }, op: { enum: ["update"] },
          person: { type: "object", additionalProperties: false, required: ["user_id", "date_joined"], properties: { user_id: int, date_joined: str } },
        },
      },
    },
  },
  { kind: "newer", level: 481, why: "register's idle_queue_timeout_secs", target: REGISTER, change: { addProperties: { idle_queue_timeout_secs: int } } },
  { kind: "newer", level: 493, why: "register's has_webex_token (API docs create-webex-video-call)", target: REGISTER, change: { addProperties: { has_webex_token: bool } } },
  ...fields("newer", "Zulip 12.0, after FL 435", "channel setting can_create_topic_group (zerver/models/streams.py)", CHANNEL_OBJECTS, {
    can_create_topic_group: groupSetting,
  }),
  ...fields("newer", "Zulip 12.0, after FL 435", "reverse linkifiers (zulip/zulip#37566) and their alternative URL templates (#38313)", LINKIFIERS, {
    example_input: nullable(str),
    reverse_template: nullable(str),
    alternative_url_templates: { type: "array", items: str },
  }),
];

export const UNDOCUMENTED: Deviation[] = [
  {
    kind: "undocumented", why: "every success may list ignored_parameters_unsupported (FL 167, JsonSuccessBase); this schema's closing field list omits it",
    target: { response: "POST /messages/flags/narrow", at: "allOf/1" }, change: { addProperties: { ignored_parameters_unsupported: { type: "array", items: str } } },
  },
  {
    kind: "undocumented", why: "Zulip sends the sender's own local_message_id to the queue that sent the message (zerver/tornado/event_queue.py)",
    target: { event: "message" }, change: { addProperties: { local_message_id: str } },
  },
  {
    kind: "undocumented",
    why: "a stream update to null: first_message_id when a channel's last message is deleted (zerver/actions/message_delete.py), folder_id when a channel leaves its folder (FL 389)",
    target: { event: "stream/update" },
    change: {
      alternative: {
        type: "object", additionalProperties: false, required: ["id", "type", "op", "stream_id", "name", "property", "value"],
        properties: { id: int, type: { enum: ["stream"] }, op: { enum: ["update"] }, stream_id: int, name: str, property: { enum: ["first_message_id", "folder_id"] }, value: { type: "null" } },
      },
    },
  },
  { kind: "undocumented", why: "BadNarrowOperatorError carries desc (zerver/lib/exceptions.py)", target: { errorCode: "BAD_NARROW" }, change: { addProperties: { desc: str } } },
  {
    kind: "undocumented",
    why: "RequestVariableConversionError (\"Bad value for 'x': y\") carries var_name and bad_value (zerver/lib/exceptions.py data_fields); Parley's type errors (\"x is not an integer\") share the code without them",
    target: { errorCode: "REQUEST_VARIABLE_INVALID" }, change: { addProperties: { var_name: str, bad_value: {} } }, fieldsOptional: true,
  },
  {
    kind: "undocumented", why: "the document's own example carries objections, its schema (CodedError) forbids them (zerver/lib/exceptions.py CannotDeactivateGroupInUseError)",
    target: { errorCode: "CANNOT_DEACTIVATE_GROUP_IN_USE" }, change: { addProperties: { objections: { type: "array", items: { type: "object" } } } },
  },
  {
    kind: "undocumented", why: "the document's own example carries the move limits, its schema (CodedError) forbids them (MoveMessagesTimeLimitError)",
    target: { errorCode: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED" },
    change: { addProperties: { first_message_id_allowed_to_move: nullable(int), total_messages_allowed_to_move: int, total_messages_in_topic: int } },
  },
  {
    kind: "undocumented", why: "retry-after is seconds as a float, as the document's own example and RateLimitedError send it (the schema says integer)",
    target: { errorCode: "RATE_LIMIT_HIT" }, change: { addProperties: { "retry-after": { type: "number" } } },
  },
];

export const DIFFERS: Deviation[] = [];

/** Differences another branch was fixing while this list was made; empty once they have landed. */
export const PENDING: Deviation[] = [];

export const DEVIATIONS: readonly Deviation[] = [...NEWER, ...UNDOCUMENTED, ...DIFFERS, ...PENDING];
