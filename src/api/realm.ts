/**
 * Organization settings (Zulip's update-realm, `PATCH /realm`) for the settings the spec's rules
 * depend on, and every realm group setting ({"new": value, "old"?: value}).
 */
import { groupSettingChange, type GroupSettingChange } from "../actions/groups/realm-group-settings.js";
import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH, updateRealmSettings } from "../actions/realm/realm-settings.js";
import { MAX_WELCOME_MESSAGE_LENGTH } from "../actions/invites/invite-checks.js";
import { invalidParam } from "../errors.js";
import { jsonOrString, retentionParam, retentionValue } from "./channel-params.js";
import { endpoint } from "../http/endpoint.js";
import { p, type ParamSpec, type ParsedParams } from "../http/params.js";
import { REALM_GROUP_SETTINGS } from "../policy/realm-group-settings.js";
import { GIF_RATING_POLICY_OPTIONS } from "../lib/realm-settings.js";

/**
 * media_preview_size (FL 469) is a percentage of the clients' default preview size (the web app
 * scales its 10em by it). Zulip's own bounds were not in the sources read; Parley takes 50–300.
 */
const MIN_MEDIA_PREVIEW_SIZE = 50;
const MAX_MEDIA_PREVIEW_SIZE = 300;

/** An integer, or a special name ("unlimited"), as JSON text or bare; the action checks the value. */
const intOrName = () => p.str().optional();
const TIME_LIMITS = [
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
] as const;

const groupParams: Record<string, ParamSpec<GroupSettingChange | undefined>> = Object.fromEntries(
  REALM_GROUP_SETTINGS.map((s) => [s.name, p.json(groupSettingChange).optional()]),
);

const scalarParams = {
  name: p.str({ maxLength: MAX_REALM_NAME_LENGTH }).optional(),
  description: p.str({ maxLength: MAX_REALM_DESCRIPTION_LENGTH }).optional(),
  allow_edit_history: p.bool().optional(),
  allow_message_editing: p.bool().optional(),
  message_content_edit_limit_seconds: intOrName(),
  message_content_delete_limit_seconds: intOrName(),
  move_messages_within_stream_limit_seconds: intOrName(),
  move_messages_between_streams_limit_seconds: intOrName(),
  waiting_period_threshold: p
    .int()
    .check((days, name) => {
      if (days < 0) throw invalidParam(`${name} is too small`);
      return days;
    })
    .optional(),
  invite_required: p.bool().optional(),
  emails_restricted_to_domains: p.bool().optional(),
  enable_spectator_access: p.bool().optional(),
  topics_policy: p.oneOf(["allow_empty_topic", "disable_empty_topic"]).optional(),
  message_retention_days: retentionParam(),
  new_stream_announcements_stream_id: p.int().optional(),
  signup_announcements_stream_id: p.int().optional(),
  moderation_request_channel_id: p.int().optional(),
  enable_read_receipts: p.bool().optional(),
  welcome_message_custom_text: p.str({ maxLength: MAX_WELCOME_MESSAGE_LENGTH }).optional(),
  digest_emails_enabled: p.bool().optional(),
  // Zulip's digest_weekday: 0 (Monday) to 6 (Sunday).
  digest_weekday: p
    .int()
    .check((day, name) => {
      if (day < 0 || day > 6) throw invalidParam(`Invalid ${name}`);
      return day;
    })
    .optional(),
  media_preview_size: p
    .int()
    .check((size, name) => {
      if (size < MIN_MEDIA_PREVIEW_SIZE || size > MAX_MEDIA_PREVIEW_SIZE) throw invalidParam(`Invalid ${name}`);
      return size;
    })
    .optional(),
  default_avatar_source: p.oneOf(["G", "J"]).optional(),
  send_channel_events_messages: p.bool().optional(),
  require_e2ee_push_notifications: p.bool().optional(),
  // One of register's realm_available_video_chat_providers ids, checked against this server's
  // settings in updateRealmSettings.
  video_chat_provider: p.int().optional(),
  gif_rating_policy: p
    .int()
    .check((id, name) => {
      if (!Object.values(GIF_RATING_POLICY_OPTIONS).some((o) => o.id === id)) throw invalidParam(`Invalid ${name}`);
      return id;
    })
    .optional(),
};

export const updateRealm = endpoint({
  method: "PATCH",
  path: "/realm",
  auth: "admin",
  params: { ...groupParams, ...scalarParams },
  async handler(ctx, params) {
    const groupSettings = new Map<string, GroupSettingChange>();
    for (const { name } of REALM_GROUP_SETTINGS) {
      const change = (params as Record<string, unknown>)[name] as GroupSettingChange | undefined;
      if (change !== undefined) groupSettings.set(name, change);
    }
    const scalars = Object.fromEntries(Object.keys(scalarParams).map((k) => [k, (params as Record<string, unknown>)[k]])) as ParsedParams<typeof scalarParams>;
    const limits = Object.fromEntries(TIME_LIMITS.map((k) => [k, scalars[k] === undefined ? undefined : jsonOrString(scalars[k])]));
    const retention = retentionValue(scalars.message_retention_days);
    return updateRealmSettings(ctx.deps, ctx.realm, ctx.user, { ...scalars, ...limits, message_retention_days: retention, groupSettings });
  },
});

export const realmEndpoints = [updateRealm];
