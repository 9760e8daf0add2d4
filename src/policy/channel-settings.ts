/**
 * Channel settings and their rules (spec 4.3): the can_*_group settings with Zulip's config and
 * default for each, name and description bounds, topics policies and the retention values.
 * `creator` marks the setting whose default is an anonymous group holding just the creator.
 */
import { ApiError, badValue } from "../errors.js";
import type { GroupSettingConfig } from "./group-settings.js";

export interface ChannelGroupSetting {
  name: string;
  column: string;
  config: GroupSettingConfig;
  default: string | "creator";
}

/** allow_everyone_group=false: guests never pass these, even as members. */
const restricted: GroupSettingConfig = { allowInternet: false, allowNobody: true, allowEveryone: false };
const open: GroupSettingConfig = { allowInternet: false, allowNobody: true, allowEveryone: true };

export const CHANNEL_GROUP_SETTINGS: readonly ChannelGroupSetting[] = [
  { name: "can_add_subscribers_group", config: restricted, default: "role:nobody" },
  { name: "can_administer_channel_group", config: restricted, default: "creator" },
  { name: "can_create_topic_group", config: open, default: "role:everyone" },
  { name: "can_delete_any_message_group", config: open, default: "role:nobody" },
  { name: "can_delete_own_message_group", config: open, default: "role:nobody" },
  { name: "can_move_messages_out_of_channel_group", config: open, default: "role:nobody" },
  { name: "can_move_messages_within_channel_group", config: open, default: "role:nobody" },
  { name: "can_remove_subscribers_group", config: open, default: "role:administrators" },
  { name: "can_resolve_topics_group", config: open, default: "role:nobody" },
  { name: "can_send_message_group", config: open, default: "role:everyone" },
  { name: "can_subscribe_group", config: restricted, default: "role:nobody" },
].map((s) => ({ ...s, column: `${s.name}_id` }));

/** Settings whose members may read the channel's content, so only someone with content access may change them. */
export const SETTINGS_REQUIRING_CONTENT_ACCESS: ReadonlySet<string> = new Set(["can_add_subscribers_group", "can_subscribe_group"]);

/** Settings that, set to anything but role:nobody, need the realm's can_set_delete_message_policy_group. */
export const DELETE_POLICY_SETTINGS: ReadonlySet<string> = new Set(["can_delete_any_message_group", "can_delete_own_message_group"]);

/** The group id a channel row stores for a setting. */
export function settingGroupId(channel: object, setting: ChannelGroupSetting): number {
  return (channel as Record<string, number>)[setting.column];
}

export const TOPICS_POLICIES = ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/** Channel colors handed to new subscriptions, cycling (Zulip's STREAM_ASSIGNMENT_COLORS). */
const COLORS = [
  "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
  "#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
  "#9987e1", "#e4523d", "#c2c2c2", "#4f8de4", "#c6a8ad", "#e7cc4d", "#c8bebf", "#a47462",
];

export function channelColor(channelId: number, userId: number): string {
  return COLORS[(channelId + userId) % COLORS.length];
}

/** Zulip's check_color: "#" and three to six hex digits. */
export function isHexColor(value: unknown): value is string {
  return typeof value === "string" && /^#[0-9a-fA-F]{3,6}$/.test(value);
}

/**
 * Zulip's check_stream_name on an already trimmed name: non-empty, bounded, and no control,
 * surrogate or unassigned code points (the error names the 1-based position).
 */
export function checkChannelName(name: string): void {
  if (name === "") throw new ApiError("Channel name can't be empty.");
  const chars = [...name];
  if (chars.length > MAX_CHANNEL_NAME_LENGTH) throw new ApiError(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  const bad = chars.findIndex((c) => /[\p{Cc}\p{Cs}\p{Cn}]/u.test(c));
  if (bad >= 0) throw new ApiError(`Invalid character in channel name, at position ${bad + 1}.`);
}

/** Zulip keeps descriptions on one line: newlines become spaces. */
export function normalizeDescription(raw: string): string {
  return raw.replace(/\r?\n/g, " ");
}

export function checkDescriptionLength(description: string): void {
  if ([...description].length > MAX_CHANNEL_DESCRIPTION_LENGTH) {
    throw new ApiError(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
  }
}

/** A message_retention_days request value: days, or a special name. */
export type RetentionValue = number | string;

/**
 * Zulip's parse_message_retention_days: "realm_default" is null (inherit), "unlimited" (and its
 * pre-FL-91 name "forever") is -1, otherwise a positive number of days.
 */
export function parseRetentionDays(value: RetentionValue): number | null {
  if (value === "realm_default") return null;
  if (value === "unlimited" || value === "forever") return -1;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw badValue("message_retention_days", value);
  }
  return value;
}

/**
 * The permission combinations Zulip allows: web-public channels are public, and public channels
 * share their history with subscribers.
 */
export function checkPrivacyCombination(inviteOnly: boolean, isWebPublic: boolean, historyPublic: boolean): void {
  if (isWebPublic && (inviteOnly || !historyPublic)) throw new ApiError("Invalid parameters");
  if (!inviteOnly && !historyPublic) throw new ApiError("Invalid parameters");
}
