/**
 * Parameter declarations shared by the channel and subscription endpoints: the can_*_group
 * settings (a group-setting value on create, `{"new", "old"?}` on update), retention days and
 * topics policy, which clients send either JSON-encoded or as plain strings.
 */
import { groupSettingValue } from "../actions/groups/group-settings.js";
import type { NewChannelSettings } from "../actions/channels/create-channel.js";
import type { GroupSettingChange } from "../actions/channels/update-channel.js";
import { invalidParam } from "../errors.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { CHANNEL_GROUP_SETTINGS, TOPICS_POLICIES, type RetentionValue, type TopicsPolicy } from "../policy/channel-settings.js";
import type { GroupSettingValue } from "../store/groups.js";

/** A form value that may be JSON text (`"unlimited"`, `10`) or the bare string (`unlimited`). */
export function jsonOrString(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * include_subscribers of register and GET /users/me/subscriptions: true, false, or "partial"
 * (FL 412), which lets the server leave out the subscribers of large channels. Parley lists them
 * all, which "partial" allows, so anything but false asks for them.
 */
export const includeSubscribersParam = () =>
  p.str().default("false").check((raw, name) => {
    if (!["true", "false", "partial", '"partial"'].includes(raw)) throw invalidParam(`${name} is not a boolean`);
    return raw;
  });

export const retentionParam = () =>
  p.str().optional().check((raw, name): string | undefined => {
    if (raw === undefined) return undefined;
    const value = jsonOrString(raw);
    if (typeof value !== "string" && typeof value !== "number") throw invalidParam(`${name} is not a string or an integer`);
    return raw;
  });

export function retentionValue(raw: string | undefined): RetentionValue | undefined {
  return raw === undefined ? undefined : (jsonOrString(raw) as RetentionValue);
}

export const topicsPolicyParam = () =>
  p.str().optional().check((raw, name): string | undefined => {
    if (raw === undefined) return undefined;
    const value = jsonOrString(raw);
    if (typeof value !== "string" || !(TOPICS_POLICIES as readonly string[]).includes(value)) throw invalidParam(`Invalid ${name}`);
    return value;
  });

export const topicsPolicyValue = (raw: string | undefined) => raw as TopicsPolicy | undefined;

/** Every can_*_group as a creation parameter. */
export const groupSettingCreateParams = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((s) => [s.name, p.json(groupSettingValue).optional()]));

const groupSettingChange: v.Validator<GroupSettingChange> = v.object({
  new: v.field(groupSettingValue),
  old: v.optionalField(groupSettingValue),
});

/** Every can_*_group as an update parameter. */
export const groupSettingUpdateParams = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((s) => [s.name, p.json(groupSettingChange).optional()]));

/** Picks the group-setting parameters out of parsed params. */
export function pickGroupSettings<T>(params: object): Partial<Record<string, T>> {
  const all = params as Record<string, T | undefined>;
  return Object.fromEntries(CHANNEL_GROUP_SETTINGS.filter((s) => all[s.name] !== undefined).map((s) => [s.name, all[s.name]]));
}

/** The creation settings both creating endpoints accept. */
export const newChannelParams = {
  invite_only: p.bool().default(false),
  is_web_public: p.bool().default(false),
  is_default_stream: p.bool().default(false),
  folder_id: p.int().optional(),
  topics_policy: topicsPolicyParam(),
  history_public_to_subscribers: p.bool().optional(),
  message_retention_days: retentionParam(),
  ...groupSettingCreateParams,
};

export function newChannelSettings(params: {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  folder_id?: number;
  topics_policy?: string;
  history_public_to_subscribers?: boolean;
  message_retention_days?: string;
}): NewChannelSettings {
  return {
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    isDefaultStream: params.is_default_stream,
    folderId: params.folder_id,
    topicsPolicy: topicsPolicyValue(params.topics_policy),
    historyPublicToSubscribers: params.history_public_to_subscribers,
    messageRetentionDays: retentionValue(params.message_retention_days),
    groupSettings: pickGroupSettings<GroupSettingValue>(params),
  };
}
