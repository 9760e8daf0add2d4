/**
 * Schemas for what the current OpenAPI document (FL 378) does not describe, written from Zulip's
 * newer API documentation and source (each entry names its source). This is the explicit list the
 * contract test checks Parley's undocumented operations and event types against; a Parley endpoint
 * that is neither in the document nor here fails the summary test. Zulip's generated FL-420 API
 * description (a derivative of zerver/openapi/zulip.yaml, Oct 2025), Zulip's zerver/views, and the
 * mobile app's lib/api were read; nothing is copied, the shapes are written down as schemas.
 */
import { DOCUMENT_ID, type Json } from "./document.js";

const ref = (name: string): Json => ({ $ref: `${DOCUMENT_ID}#/components/schemas/${name}` });
const int: Json = { type: "integer" };
const str: Json = { type: "string" };
const bool: Json = { type: "boolean" };
const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: "null" }] });
const intList: Json = { type: "array", items: int };

/** A success answer with exactly these fields besides the envelope (`required` among them). */
export function success(fields: Record<string, Json> = {}, required: string[] = Object.keys(fields)): Json {
  return {
    allOf: [
      ref("JsonSuccessBase"),
      { additionalProperties: false, required, properties: { result: {}, msg: {}, ignored_parameters_unsupported: {}, ...fields } },
    ],
  };
}

/** An event with exactly these fields besides id, type and op. */
function event(type: string, op: string | null, fields: Record<string, Json>, required: string[] = Object.keys(fields)): Json {
  const base: Record<string, Json> = { id: int, type: { enum: [type] }, ...(op ? { op: { enum: [op] } } : {}) };
  return { type: "object", additionalProperties: false, required: [...Object.keys(base), ...required], properties: { ...base, ...fields } };
}

export interface NewerOperation {
  /** Feature level or Zulip version that added it, and the source its shape was read from. */
  source: string;
  /** JSON Schema of the 2xx body. */
  schema: Json;
}

/** A channel folder object (Zulip 11, FL 389, `order` FL 414; API docs get-channel-folders). */
export const channelFolder: Json = {
  type: "object",
  additionalProperties: false,
  required: ["id", "name", "description", "rendered_description", "order", "date_created", "creator_id", "is_archived"],
  properties: {
    id: int, name: str, description: str, rendered_description: str, order: int,
    date_created: nullable(int), creator_id: nullable(int), is_archived: bool,
  },
};

/** The bot fields Zulip's add_bot_backend / get_bots_backend / patch_bot_backend answer with (zerver/views/users.py). */
const botDefaults: Record<string, Json> = {
  avatar_url: str,
  default_sending_stream: nullable(str),
  default_events_register_stream: nullable(str),
  default_all_public_streams: bool,
};

/** A reminder (FL 399, API docs get-reminders): a scheduled direct message to oneself about a message. */
export const reminder: Json = {
  type: "object", additionalProperties: false,
  required: ["reminder_id", "type", "to", "content", "rendered_content", "scheduled_delivery_timestamp", "failed", "reminder_target_message_id"],
  properties: {
    reminder_id: int, type: { enum: ["private"] }, to: intList, content: str, rendered_content: str,
    scheduled_delivery_timestamp: int, failed: bool, reminder_target_message_id: int,
  },
};

/** A navigation view (FL 390, API docs get-navigation-views; zerver/lib/navigation_views.py NavigationViewDict). */
export const navigationView: Json = {
  type: "object", additionalProperties: false, required: ["fragment", "is_pinned", "name"],
  properties: { fragment: str, is_pinned: bool, name: nullable(str) },
};

/** Keyed by Parley's route (`METHOD /path/:param`). */
export const NEWER_OPERATIONS: Record<string, NewerOperation> = {
  "POST /channels/create": { source: "FL 417, API docs create-channel", schema: success({ id: int }) },
  "POST /channel_folders/create": { source: "FL 389, API docs create-channel-folder", schema: success({ channel_folder_id: int }) },
  "GET /channel_folders": { source: "FL 389, API docs get-channel-folders", schema: success({ channel_folders: { type: "array", items: channelFolder } }) },
  "PATCH /channel_folders/:channel_folder_id": { source: "FL 389, API docs update-channel-folder", schema: success() },
  "PATCH /channel_folders": { source: "FL 414, API docs patch-channel-folders", schema: success() },
  "POST /jwt/fetch_api_key": {
    source: "Zulip 7.0 (FL 160), API docs jwt-fetch-api-key; seed spec 4.14: user only with include_profile",
    schema: success({ api_key: str, email: str, user: ref("User") }, ["api_key", "email"]),
  },
  "POST /users/me/api_key/regenerate": { source: "zerver/views/users.py regenerate_api_key", schema: success({ api_key: str }) },
  "PATCH /users/me/subscriptions/:stream_id": { source: "zerver/urls.py update_subscription_property (single-setting form)", schema: success() },
  "PATCH /realm/profile_fields/:field_id": { source: "zerver/views/custom_profile_fields.py update_realm_custom_profile_field", schema: success() },
  "DELETE /realm/profile_fields/:field_id": { source: "zerver/views/custom_profile_fields.py delete_realm_custom_profile_field", schema: success() },
  "PATCH /users/me/profile_data": { source: "seed spec 4.16, API docs update-profile-data", schema: success() },
  "DELETE /users/me/profile_data": { source: "API docs remove-profile-data", schema: success() },
  "GET /realm/filters": {
    source: "legacy list_filters (zerver/views/realm_filters.py): [pattern, url_template, id] triples",
    schema: success({ filters: { type: "array", items: { type: "array", minItems: 3, maxItems: 3, items: [str, str, int] } } }),
  },
  "POST /mobile_push/register": { source: "FL 406, API docs register-push-device", schema: success() },
  "POST /mobile_push/e2ee/test_notification": { source: "seed spec 4.21, API docs e2ee-test-notify", schema: success() },
  "POST /bots": { source: "zerver/views/users.py add_bot_backend", schema: success({ user_id: int, api_key: str, ...botDefaults }) },
  "GET /bots": {
    source: "zerver/views/users.py get_bots_backend",
    schema: success({
      bots: {
        type: "array",
        items: { type: "object", additionalProperties: false, required: ["username", "full_name", "api_key", ...Object.keys(botDefaults)], properties: { username: str, full_name: str, api_key: str, ...botDefaults } },
      },
    }),
  },
  "PATCH /bots/:bot_id": {
    source: "zerver/views/users.py patch_bot_backend: the bot's settings after the change, the service parameters as given, bot_owner when it has one",
    schema: success(
      { full_name: str, bot_owner: str, service_interface: int, service_payload_url: nullable(str), config_data: nullable({ type: "object", additionalProperties: str }), ...botDefaults },
      ["full_name", "service_interface", "service_payload_url", "config_data", ...Object.keys(botDefaults)],
    ),
  },
  "DELETE /bots/:bot_id": { source: "zerver/views/users.py deactivate_bot_backend", schema: success() },
  "PATCH /realm": {
    source: "zerver/views/realm.py update_realm (undocumented): the changed settings by name",
    schema: {
      allOf: [
        ref("JsonSuccessBase"),
        { propertyNames: { pattern: "^[a-z][a-z0-9_]*$" }, additionalProperties: { anyOf: [str, int, bool, { type: "null" }, ref("GroupSettingValue")] } },
      ],
    },
  },
  // Operations other helpers of issue 15 are adding (item 4), described here ahead of their merge.
  "POST /register_client_device": { source: "FL 468, zerver/views/devices.py register_device", schema: success({ device_id: int }) },
  "GET /bot_storage": { source: "zerver/views/storage.py get_storage", schema: success({ storage: { type: "object", additionalProperties: str } }) },
  "PUT /bot_storage": { source: "zerver/views/storage.py update_storage", schema: success() },
  "DELETE /bot_storage": { source: "zerver/views/storage.py remove_storage", schema: success() },
  "POST /remove_client_device": { source: "FL 470, zerver/views/devices.py remove_device", schema: success() },
  "POST /submessage": { source: "zerver/views/submessage.py process_submessage (polls and to-do lists; FL 354 content access)", schema: success() },
  "GET /bots/:bot_id/api_key": { source: "FL 463, API docs get-bot-api-key", schema: success({ api_key: str }) },
  "GET /reminders": { source: "FL 399, API docs get-reminders", schema: success({ reminders: { type: "array", items: reminder } }) },
  "POST /reminders": { source: "FL 381, API docs create-message-reminder", schema: success({ reminder_id: int }) },
  "DELETE /reminders/:reminder_id": { source: "FL 399, API docs delete-reminder", schema: success() },
  "POST /users/:user_id/status": { source: "FL 407 (administrators), FL 473 (their bots); API docs update-status-for-user", schema: success() },
  // Issue 17 (helper api17a).
  "GET /navigation_views": { source: "FL 390, API docs get-navigation-views", schema: success({ navigation_views: { type: "array", items: navigationView } }) },
  "POST /navigation_views": { source: "FL 390, API docs add-navigation-view", schema: success() },
  "PATCH /navigation_views/*": { source: "FL 390, API docs edit-navigation-view", schema: success() },
  "DELETE /navigation_views/*": { source: "FL 390, API docs remove-navigation-view", schema: success() },
  // Issue 17 (helper integr).
  "POST /bots/:bot_id/api_key/regenerate": { source: "API docs regenerate-bot-api-key; zerver/views/users.py regenerate_bot_api_key", schema: success({ api_key: str }) },
  "GET /realm/domains": {
    source: "API docs get-realm-domains; zerver/views/realm_domains.py list_realm_domains",
    schema: success({ domains: { type: "array", items: ref("RealmDomain") } }),
  },
  "POST /realm/domains": {
    source: "API docs add-realm-domain: new_domain is [id, domain]",
    schema: success({ new_domain: { type: "array", minItems: 2, maxItems: 2, items: [int, str] } }),
  },
  "PATCH /realm/domains/:domain": { source: "API docs patch-realm-domain", schema: success() },
  "DELETE /realm/domains/:domain": { source: "API docs delete-realm-domain", schema: success() },
  "POST /realm/test_welcome_bot_custom_message": { source: "FL 416, API docs test-welcome-bot-custom-message", schema: success({ message_id: int }) },
  "POST /messages/:message_id/report": { source: "FL 382, API docs report-message; zerver/views/message_report.py", schema: success() },
  "GET /users/:user_id/channels": { source: "FL 440, API docs get-user-channels", schema: success({ subscribed_channel_ids: intList }) },
  "GET /thumbnail/status/:realm_id_str/*": { source: "FL 479, API docs check-thumbnail-status", schema: success({ has_thumbnail: bool }) },
  "POST /calls/constructorgroups/create": { source: "FL 460, API docs create-constructor-groups-video-call", schema: success({ url: str }) },
  "POST /calls/nextcloud_talk/create": { source: "FL 465, API docs create-nextcloud-talk-video-call", schema: success({ url: str }) },
  "POST /calls/webex/create": { source: "FL 493, API docs create-webex-video-call", schema: success({ url: str }) },
};

/**
 * Operations that answer exactly as another one: the deprecated settings aliases
 * (`PATCH /settings/notifications` and `/settings/display`, API docs update-settings).
 */
export const ALIASES: Record<string, string> = {
  "PATCH /settings/notifications": "PATCH /settings",
  "PATCH /settings/display": "PATCH /settings",
};

export interface NewerEvent {
  source: string;
  /** The document has this event type: the ops listed here are new, its other ops stay checked against it. */
  documentedType?: boolean;
  /** By op ("" for events without one). */
  ops: Record<string, Json>;
}

/** Event types (or ops of documented types) the document (FL 378) does not have. */
export const NEWER_EVENTS: Record<string, NewerEvent> = {
  has_webex_token: {
    source: "FL 493, API docs create-webex-video-call (the has_webex_token event type); zerver/actions/video_calls.py",
    ops: { "": event("has_webex_token", null, { value: bool }) },
  },
  reminders: {
    source: "FL 399, API docs get-events#reminders-add",
    ops: {
      add: event("reminders", "add", { reminders: { type: "array", items: reminder } }),
      remove: event("reminders", "remove", { reminder_id: int }),
    },
  },
  realm_emoji: {
    source: "FL 491, the individual_emoji_changes capability: one emoji added, or one property changed (zulip-flutter events.dart)",
    documentedType: true,
    ops: {
      add: event("realm_emoji", "add", { emoji: ref("RealmEmoji") }),
      update_one: event("realm_emoji", "update_one", {
        emoji_id: str,
        data: { type: "object", additionalProperties: false, minProperties: 1, properties: { deactivated: bool } },
      }),
    },
  },
  channel_folder: {
    source: "FL 389 (add, update), FL 418 (reorder); API docs get-events#channel_folder-add",
    ops: {
      add: event("channel_folder", "add", { channel_folder: channelFolder }),
      update: event("channel_folder", "update", {
        channel_folder_id: int,
        data: { type: "object", additionalProperties: false, minProperties: 1, properties: { name: str, description: str, rendered_description: str, is_archived: bool } },
      }),
      reorder: event("channel_folder", "reorder", { order: intList }),
    },
  },
  navigation_view: {
    source: "FL 390, API docs get-events#navigation_view-add; zerver/actions/navigation_views.py (update data holds what was sent, possibly nothing)",
    ops: {
      add: event("navigation_view", "add", { navigation_view: navigationView }),
      update: event("navigation_view", "update", {
        fragment: str,
        data: { type: "object", additionalProperties: false, properties: { name: str, is_pinned: bool } },
      }),
      remove: event("navigation_view", "remove", { fragment: str }),
    },
  },
  device: {
    source: "FL 468, API docs get-events#device-add; zulip-flutter lib/api/model/events.dart",
    ops: {
      add: event("device", "add", { device_id: int }),
      remove: event("device", "remove", { device_id: int }),
      update: event(
        "device",
        "update",
        {
          device_id: int, push_key_id: nullable(int), push_token_id: nullable(str), pending_push_token_id: nullable(str),
          push_token_last_updated_timestamp: nullable(int), push_registration_error_code: nullable(str),
        },
        ["device_id"],
      ),
    },
  },
};

/** 405 answers: Django's, not an operation's (zulip-facts section e): no code, the allowed methods. */
export const METHOD_NOT_ALLOWED: Json = {
  type: "object",
  additionalProperties: false,
  required: ["result", "msg", "allowed_methods"],
  properties: { result: { enum: ["error"] }, msg: str, allowed_methods: { type: "array", items: { enum: ["GET", "POST", "PATCH", "PUT", "DELETE"] } } },
};

/** Success answers of an HTTP-layer test's own endpoint table: the envelope (spec conventions 2-3). */
export const TEST_ENDPOINT_SUCCESS: Json = ref("JsonSuccessBase");

/** Zulip's ErrorCode names (zerver/lib/exceptions.py, FL 442; zulip-facts section e). Clients switch on them. */
export const ERROR_CODES = new Set([
  "BAD_REQUEST", "REQUEST_VARIABLE_MISSING", "REQUEST_VARIABLE_INVALID", "INVALID_JSON", "BAD_IMAGE", "REALM_UPLOAD_QUOTA",
  "BAD_NARROW", "CANNOT_DEACTIVATE_LAST_USER", "MISSING_HTTP_EVENT_HEADER", "CHANNEL_ALREADY_EXISTS", "STREAM_DOES_NOT_EXIST",
  "UNAUTHORIZED_PRINCIPAL", "UNSUPPORTED_WEBHOOK_EVENT_TYPE", "ANOMALOUS_WEBHOOK_PAYLOAD", "BAD_EVENT_QUEUE_ID", "CSRF_FAILED",
  "INVITATION_FAILED", "INVALID_ZULIP_SERVER", "INVALID_PUSH_DEVICE_TOKEN", "INVALID_REMOTE_PUSH_DEVICE_TOKEN",
  "INVALID_MARKDOWN_INCLUDE_STATEMENT", "REQUEST_CONFUSING_VAR", "INVALID_API_KEY", "INVALID_VIDEO_CALL_PROVIDER_TOKEN",
  "UNKNOWN_ZOOM_USER", "UNAUTHENTICATED_USER", "NONEXISTENT_SUBDOMAIN", "RATE_LIMIT_HIT", "USER_DEACTIVATED", "REALM_DEACTIVATED",
  "REMOTE_SERVER_DEACTIVATED", "PASSWORD_AUTH_DISABLED", "PASSWORD_RESET_REQUIRED", "AUTHENTICATION_FAILED", "UNAUTHORIZED",
  "REQUEST_TIMEOUT", "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", "REACTION_ALREADY_EXISTS", "REACTION_DOES_NOT_EXIST", "SERVER_NOT_READY",
  "MISSING_REMOTE_REALM", "TOPIC_WILDCARD_MENTION_NOT_ALLOWED", "STREAM_WILDCARD_MENTION_NOT_ALLOWED",
  "REMOTE_BILLING_UNAUTHENTICATED_USER", "REMOTE_REALM_SERVER_MISMATCH_ERROR", "PUSH_NOTIFICATIONS_DISALLOWED",
  "EXPECTATION_MISMATCH", "SYSTEM_GROUP_REQUIRED", "CANNOT_DEACTIVATE_GROUP_IN_USE", "CANNOT_ADMINISTER_CHANNEL",
  "REMOTE_SERVER_VERIFICATION_SECRET_NOT_PREPARED", "HOSTNAME_ALREADY_IN_USE_BOUNCER_ERROR", "INVALID_BOUNCER_PUBLIC_KEY",
  "REQUEST_EXPIRED", "PUSH_SERVICE_NOT_CONFIGURED", "NO_ACTIVE_PUSH_DEVICE", "FAILED_TO_CONNECT_BOUNCER",
  "INTERNAL_SERVER_ERROR_ON_BOUNCER", "ADMIN_ACTION_REQUIRED",
  // FL 494: bot storage refuses users who are not bots (Zulip's API description, mid-2026).
  "PERMISSION_DENIED",
]);
