/**
 * PATCH /realm (Zulip's update-realm), for the organization settings the spec's rules depend on:
 * administrators only, and owners only for who may join (invite_required, email domains), the
 * waiting period, message retention and the owner-only group settings. Every value is checked
 * before anything is written, all in one transaction; everyone hears of each change (realm
 * update / update_dict in Zulip's per-property shapes). The response names what changed.
 */
import { accessChannelById } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, badValue, mustBeOwner } from "../../errors.js";
import { publishOnCommit, type ChatEvent } from "../../events/bus.js";
import { videoChatProviders } from "../../events/state/server.js";
import { REALM_JSON_SETTING_DEFAULTS, realmSetting, withRealmSetting } from "../../lib/realm-settings.js";
import { parseRetentionDays } from "../../policy/channel-settings.js";
import { REALM_GROUP_SETTINGS } from "../../policy/realm-group-settings.js";
import { isOwner } from "../../policy/roles.js";
import { transaction, type Tx } from "../../store/db.js";
import { getRealmById, insertAuditLog, updateRealm } from "../../store/realms.js";
import type { RealmRow, RealmUpdate, UserRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";
import { doSyncFullMembers } from "../users/full-members.js";
import { checkRealmGroupSettingChanges, doSetRealmGroupSettings, type GroupSettingChange } from "../groups/realm-group-settings.js";

/** Zulip's Realm.MAX_REALM_NAME_LENGTH and MAX_REALM_DESCRIPTION_LENGTH. */
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** A time limit as sent: seconds, or "unlimited" (anything else is refused). */
export type TimeLimit = unknown;

export interface RealmSettingsInput {
  name?: string;
  description?: string;
  allow_edit_history?: boolean;
  allow_message_editing?: boolean;
  message_content_edit_limit_seconds?: TimeLimit;
  message_content_delete_limit_seconds?: TimeLimit;
  move_messages_within_stream_limit_seconds?: TimeLimit;
  move_messages_between_streams_limit_seconds?: TimeLimit;
  waiting_period_threshold?: number;
  invite_required?: boolean;
  emails_restricted_to_domains?: boolean;
  enable_spectator_access?: boolean;
  topics_policy?: string;
  message_retention_days?: number | string;
  new_stream_announcements_stream_id?: number;
  signup_announcements_stream_id?: number;
  /** Where message reports go (FL 331); a private channel, or -1 for none. */
  moderation_request_channel_id?: number;
  /** Kept in realms.settings (default true); read receipts honour it (FL 137). */
  enable_read_receipts?: boolean;
  /** Kept in realms.settings (default ""): Welcome Bot's custom message to new users (FL 416). */
  welcome_message_custom_text?: string;
  /** Kept in realms.settings (default false, Tuesday): weekly digest emails (actions/notifications/digest.ts). */
  digest_emails_enabled?: boolean;
  digest_weekday?: number;
  /** Kept in realms.settings: the size of image and video previews, in percent (FL 469). */
  media_preview_size?: number;
  /** Kept in realms.settings: the avatar new users start with, "G" (Gravatar) or "J" (Jdenticon; FL 456). */
  default_avatar_source?: string;
  /** Kept in realms.settings: whether Notification Bot posts about channel changes (FL 434). */
  send_channel_events_messages?: boolean;
  /** Kept in realms.settings: whether pushes carry message content only end-to-end encrypted (FL 409). */
  require_e2ee_push_notifications?: boolean;
  /** Kept in realms.settings: the GIF rating clients may offer (FL 453, formerly giphy_rating). */
  gif_rating_policy?: number;
  /** Kept in realms.settings: the realm's video call provider (Zulip's ids; default 1, Jitsi Meet). */
  video_chat_provider?: number;
  /** Group settings by name (can_invite_users_group, …). */
  groupSettings: ReadonlyMap<string, GroupSettingChange>;
}

type AnnouncementProperty = "new_stream_announcements_stream_id" | "signup_announcements_stream_id" | "moderation_request_channel_id";
/** Settings kept in realms.settings, with their defaults (lib/realm-settings.ts). */
const JSON_FLAGS = REALM_JSON_SETTING_DEFAULTS;
type JsonFlag = keyof typeof JSON_FLAGS;
type JsonValue = boolean | string | number;
type ColumnProperty = Exclude<keyof RealmSettingsInput, "groupSettings" | AnnouncementProperty | JsonFlag>;

/** Settings stored in realms columns of the same name. */
const COLUMN_PROPERTIES: readonly ColumnProperty[] = [
  "name",
  "description",
  "allow_edit_history",
  "allow_message_editing",
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
  "waiting_period_threshold",
  "invite_required",
  "emails_restricted_to_domains",
  "enable_spectator_access",
  "topics_policy",
  "message_retention_days",
];

const OWNER_ONLY: ReadonlySet<string> = new Set(["invite_required", "emails_restricted_to_domains", "waiting_period_threshold", "message_retention_days"]);
const TIME_LIMITS: ReadonlySet<string> = new Set([
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
]);
/** Free texts Zulip's update_realm answers with "updated" instead of the value. */
const UPDATED_TEXTS: ReadonlySet<string> = new Set(["name", "description", "welcome_message_custom_text"]);
const ANNOUNCEMENT_CHANNELS: readonly AnnouncementProperty[] = ["new_stream_announcements_stream_id", "signup_announcements_stream_id", "moderation_request_channel_id"];

/** Zulip's parse_message_time_limit_setting: "unlimited" is null, otherwise a positive number of seconds. */
function parseTimeLimit(name: string, value: TimeLimit): number | null {
  if (value === "unlimited") return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) throw badValue(name, value);
  return value;
}

/** The value a column stores for a requested setting. */
function storedValue(name: ColumnProperty, value: unknown): unknown {
  if (TIME_LIMITS.has(name)) return parseTimeLimit(name, value as TimeLimit);
  if (name === "message_retention_days") {
    // Only channels inherit the realm's value; the realm itself has no "realm_default".
    if (value === "realm_default") throw badValue("message_retention_days", value);
    return parseRetentionDays(value as number | string);
  }
  if (name === "name") {
    const trimmed = (value as string).trim();
    if (trimmed === "") throw new ApiError("Organization name can't be empty.");
    return trimmed;
  }
  return value;
}

/** Zulip sends these as update_dict for historical reasons (topics_policy with the legacy mandatory_topics). */
function realmEvent(property: string, value: unknown): ChatEvent {
  if (property === "topics_policy") {
    return { type: "realm", op: "update_dict", property: "default", data: { topics_policy: value, mandatory_topics: value === "disable_empty_topic" } };
  }
  if (["allow_message_editing", "message_content_edit_limit_seconds", "description"].includes(property)) {
    return { type: "realm", op: "update_dict", property: "default", data: { [property]: value } };
  }
  return { type: "realm", op: "update", property, value };
}

/** A setting kept in realms.settings, or its default. */
function jsonSetting(realm: RealmRow, name: JsonFlag): JsonValue {
  return (realmSetting(realm, name) as JsonValue | undefined) ?? JSON_FLAGS[name];
}

/** A column's value as the API reports it (a realm without a retention period keeps messages forever: -1). */
function currentValue(realm: RealmRow, name: string): unknown {
  const value = (realm as unknown as Record<string, unknown>)[name];
  return name === "message_retention_days" ? (value ?? -1) : value;
}

function checkOwnerOnly(user: UserRow, input: RealmSettingsInput): void {
  const supplied = [...COLUMN_PROPERTIES.filter((k) => input[k] !== undefined), ...input.groupSettings.keys()];
  const ownerOnlyGroups = new Set(REALM_GROUP_SETTINGS.filter((s) => s.ownerOnly).map((s) => s.name));
  if (!isOwner(user) && supplied.some((k) => OWNER_ONLY.has(k) || ownerOnlyGroups.has(k))) throw mustBeOwner();
}

/**
 * Changes of the settings naming a channel: -1 turns one off, otherwise a channel the administrator
 * can see; the moderation request channel must be private (Zulip's do_set_realm_moderation_request_channel).
 */
async function checkAnnouncementChannels(tx: Tx, realm: RealmRow, user: UserRow, input: RealmSettingsInput): Promise<Map<AnnouncementProperty, number>> {
  const changes = new Map<AnnouncementProperty, number>();
  for (const property of ANNOUNCEMENT_CHANNELS) {
    const id = input[property];
    if (id === undefined) continue;
    if (id >= 0) {
      const { channel } = await accessChannelById(tx, user, id, { requireActive: true });
      if (property === "moderation_request_channel_id" && !channel.invite_only) throw new ApiError("Moderation request channel must be private.");
    }
    const normalized = id >= 0 ? id : -1;
    if (normalized !== ((realmSetting(realm, property) as number | undefined) ?? -1)) changes.set(property, normalized);
  }
  return changes;
}

/** Zulip refuses a provider this server does not offer (zerver/views/realm.py): its settings decide. */
function checkVideoChatProvider(deps: AppDeps, id: number | undefined): void {
  if (id === undefined) return;
  if (!Object.values(videoChatProviders(deps.config)).some((provider) => provider.id === id)) throw new ApiError(`Invalid video_chat_provider ${id}`, "BAD_REQUEST");
}

export async function updateRealmSettings(deps: AppDeps, realmAtAuth: RealmRow, user: UserRow, input: RealmSettingsInput): Promise<Record<string, unknown>> {
  checkOwnerOnly(user, input);
  checkVideoChatProvider(deps, input.video_chat_provider);
  return transaction(deps.store, async (tx) => {
    const realm = (await getRealmById(tx, realmAtAuth.id)) as RealmRow;
    const columns: Record<string, unknown> = {};
    for (const name of COLUMN_PROPERTIES) {
      if (input[name] === undefined) continue;
      const stored = storedValue(name, input[name]);
      if (stored !== currentValue(realm, name)) columns[name] = stored;
    }
    const announcements = await checkAnnouncementChannels(tx, realm, user, input);
    const flags = (Object.keys(JSON_FLAGS) as JsonFlag[]).flatMap((name): Array<[JsonFlag, JsonValue]> => {
      const value = input[name];
      return value !== undefined && value !== jsonSetting(realm, name) ? [[name, value]] : [];
    });
    const pendingGroups = await checkRealmGroupSettingChanges(tx, realm, input.groupSettings);

    const audience = await listActiveUserIds(tx, realm.id);
    const now = deps.clock.now();
    const data: Record<string, unknown> = await doSetRealmGroupSettings(deps, tx, realm, user, pendingGroups, audience);
    let settings = realm.settings;
    for (const [property, id] of announcements) settings = withRealmSetting({ settings }, property, id >= 0 ? id : undefined);
    for (const [property, value] of flags) settings = withRealmSetting({ settings }, property, value);
    await updateRealm(tx, realm.id, { ...columns, settings } as RealmUpdate);
    const changed: Array<[string, unknown]> = [...Object.entries(columns), ...announcements, ...flags];
    for (const [property, value] of changed) {
      const old = property in columns ? currentValue(realm, property) : property in JSON_FLAGS ? jsonSetting(realm, property as JsonFlag) : (realmSetting(realm, property) ?? -1);
      await insertAuditLog(tx, { realm_id: realm.id, event_type: "realm_property_changed", event_time: now, acting_user_id: user.id, extra_data: { property, old_value: old, new_value: value } });
      publishOnCommit(tx, deps.events, realmEvent(property, value), audience);
      data[property] = UPDATED_TEXTS.has(property) ? "updated" : value;
    }
    if ("waiting_period_threshold" in columns) await doSyncFullMembers(deps, tx, { ...realm, ...columns } as RealmRow);
    return data;
  });
}
