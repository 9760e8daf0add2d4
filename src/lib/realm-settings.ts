/**
 * The realm's long-tail settings, kept as JSON overrides in realms.settings (migration 0001).
 * Channel ids such as `new_stream_announcements_stream_id` live here (spec 4.3 `announce`).
 */

/** A realm (a realms row, or any object with its settings JSON text). */
interface RealmSettingsHolder {
  settings: string;
}

export function realmSetting(realm: RealmSettingsHolder, key: string): unknown {
  return (JSON.parse(realm.settings) as Record<string, unknown>)[key];
}

/** The settings JSON with `key` set (or removed when `value` is undefined). */
export function withRealmSetting(realm: RealmSettingsHolder, key: string, value: unknown): string {
  const settings = JSON.parse(realm.settings) as Record<string, unknown>;
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  return JSON.stringify(settings);
}

/** The channel Notification Bot announces new channels in, if set. */
export function newChannelAnnouncementsChannelId(realm: RealmSettingsHolder): number | null {
  const id = realmSetting(realm, "new_stream_announcements_stream_id");
  return typeof id === "number" && id > 0 ? id : null;
}

/** Zulip's realm.enable_read_receipts (FL 137): on unless an administrator turned it off. */
export function readReceiptsEnabled(realm: RealmSettingsHolder): boolean {
  return realmSetting(realm, "enable_read_receipts") !== false;
}

/** Zulip's default digest_weekday: Tuesday (0 is Monday). */
export const DEFAULT_DIGEST_WEEKDAY = 1;

/** The realm's digest settings (Zulip's defaults: off, Tuesday); actions/notifications/digest.ts. */
export function digestSettingsOf(realm: RealmSettingsHolder): { enabled: boolean; weekday: number } {
  const weekday = realmSetting(realm, "digest_weekday");
  return { enabled: realmSetting(realm, "digest_emails_enabled") === true, weekday: typeof weekday === "number" ? weekday : DEFAULT_DIGEST_WEEKDAY };
}
/**
 * The settings kept in realms.settings that PATCH /realm changes, with their defaults (Zulip's
 * Realm field defaults): read receipts (FL 137), Welcome Bot's custom text (FL 416), the media
 * preview size in percent of the default (FL 469), the avatar source of new users (FL 456),
 * channel-event notices (FL 434), end-to-end-encrypted-only push content (FL 409) and the GIF
 * rating (FL 453; Zulip's default, G).
 */
export const REALM_JSON_SETTING_DEFAULTS = {
  enable_read_receipts: true,
  welcome_message_custom_text: "",
  media_preview_size: 100,
  default_avatar_source: "G",
  send_channel_events_messages: true,
  require_e2ee_push_notifications: false,
  gif_rating_policy: 2,
  digest_emails_enabled: false,
  digest_weekday: DEFAULT_DIGEST_WEEKDAY,
  // Zulip's default provider: Jitsi Meet (Realm.VIDEO_CHAT_PROVIDERS["jitsi_meet"]).
  video_chat_provider: 1,
} as const satisfies Record<string, boolean | string | number>;

export type RealmJsonSetting = keyof typeof REALM_JSON_SETTING_DEFAULTS;

/** A realm's value of one of these settings, its default if never set. */
export function realmJsonSetting<K extends RealmJsonSetting>(realm: RealmSettingsHolder, key: K): (typeof REALM_JSON_SETTING_DEFAULTS)[K] extends boolean ? boolean : (typeof REALM_JSON_SETTING_DEFAULTS)[K] extends number ? number : string {
  const value = realmSetting(realm, key);
  return (value ?? REALM_JSON_SETTING_DEFAULTS[key]) as never;
}

/** Whether Notification Bot posts notices of channel changes in the channel (FL 434). */
export function sendsChannelEventMessages(realm: RealmSettingsHolder): boolean {
  return realmSetting(realm, "send_channel_events_messages") !== false;
}

/** Whether message content may reach devices only end-to-end encrypted (FL 409). */
export function requiresE2eePush(realm: RealmSettingsHolder): boolean {
  return realmSetting(realm, "require_e2ee_push_notifications") === true;
}

/** The realm's stable UUID (register's realm_uuid, FL 466), written at creation or by migration 0022. */
export function realmUuid(realm: RealmSettingsHolder): string {
  const uuid = realmSetting(realm, "uuid");
  return typeof uuid === "string" ? uuid : "";
}

/**
 * gif_rating_policy_options (FL 453; giphy_rating_options before FL 442, gif_rating_options until
 * FL 453): Zulip's Realm.GIF_RATING_POLICY_OPTIONS. Parley has no GIF provider key (giphy_api_key,
 * tenor_api_key and klipy_api_key are ""), so clients offer no GIF picker; the setting still has its values.
 */
export const GIF_RATING_POLICY_OPTIONS = {
  disabled: { name: "GIF integration disabled", id: 0 },
  y: { name: "Allow GIFs rated Y (Very young audience)", id: 1 },
  g: { name: "Allow GIFs rated G (General audience)", id: 2 },
  pg: { name: "Allow GIFs rated PG (Parental guidance)", id: 3 },
  "pg-13": { name: "Allow GIFs rated PG-13 (Parental guidance - under 13)", id: 4 },
  r: { name: "Allow GIFs rated R (Restricted)", id: 5 },
};
