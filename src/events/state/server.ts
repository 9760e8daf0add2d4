/**
 * Facts about the server that POST /register reports with the `realm` section and that no realm
 * setting changes (zerver/lib/events.py fetch_initial_state_data): default external-account
 * types, video call providers, and how each group-permission setting may be set.
 */
import { DEFAULT_EXTERNAL_ACCOUNTS } from "../../policy/profile-fields.js";
import { CHANNEL_GROUP_SETTINGS } from "../../policy/channel-settings.js";
import type { GroupSettingConfig } from "../../policy/group-settings.js";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_GROUP_SETTINGS } from "../../policy/realm-group-settings.js";
import { USER_GROUP_SETTINGS } from "../../policy/user-groups.js";

/** realm_default_external_accounts: {subtype: {name, text, hint, url_pattern}}. */
export function defaultExternalAccounts(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(DEFAULT_EXTERNAL_ACCOUNTS).map(([subtype, a]) => [subtype, { name: a.name, text: a.text, hint: a.hint, url_pattern: a.urlPattern }]),
  );
}


/**
 * Zulip's video call provider ids (Realm.VIDEO_CHAT_PROVIDERS): 2 was Google Hangouts, 3 and 5
 * are Zoom's (Parley has no Zoom credentials).
 */
export const VIDEO_CHAT_PROVIDER_IDS = { disabled: 0, jitsi_meet: 1, big_blue_button: 4, constructor_groups: 6, nextcloud_talk: 7, webex: 8 } as const;

interface VideoCallSettings {
  bigBlueButton: unknown;
  nextcloudTalk: unknown;
  constructorGroups: unknown;
  webex: unknown;
}

/**
 * realm_available_video_chat_providers: the providers this server can offer (Zulip's ids). Jitsi
 * Meet needs nothing; each other provider only when its server settings are set (config.ts).
 */
export function videoChatProviders(config: VideoCallSettings): Record<string, { name: string; id: number }> {
  const ids = VIDEO_CHAT_PROVIDER_IDS;
  return {
    disabled: { name: "None", id: ids.disabled },
    jitsi_meet: { name: "Jitsi Meet", id: ids.jitsi_meet },
    ...(config.bigBlueButton ? { big_blue_button: { name: "BigBlueButton", id: ids.big_blue_button } } : {}),
    ...(config.constructorGroups ? { constructor_groups: { name: "Constructor Groups", id: ids.constructor_groups } } : {}),
    ...(config.nextcloudTalk ? { nextcloud_talk: { name: "Nextcloud Talk", id: ids.nextcloud_talk } } : {}),
    ...(config.webex ? { webex: { name: "Webex", id: ids.webex } } : {}),
  };
}

interface PermissionSettingSpec {
  name: string;
  config: GroupSettingConfig;
  default: string;
  allowedSystemGroups?: readonly string[];
}

function describe(setting: PermissionSettingSpec, defaultForSystemGroups: string | null) {
  return {
    require_system_group: setting.config.requireSystem ?? false,
    allow_internet_group: setting.config.allowInternet,
    allow_nobody_group: setting.config.allowNobody,
    allow_everyone_group: setting.config.allowEveryone,
    default_group_name: setting.default,
    default_for_system_groups: defaultForSystemGroups,
    allowed_system_groups: [...(setting.allowedSystemGroups ?? [])],
  };
}

/**
 * server_supported_permission_settings (FL 221, unstable in Zulip): per realm, channel and group
 * setting, which groups it may name and its default. Settings that default to an anonymous group
 * of the creator name it "channel_creator" / "group_creator", as Zulip does; a user group's own
 * settings default to role:nobody on system groups.
 */
export function supportedPermissionSettings() {
  const table = (settings: readonly PermissionSettingSpec[], creator: string, forSystemGroups: string | null) =>
    Object.fromEntries(settings.map((s) => [s.name, describe({ ...s, default: s.default === "creator" ? creator : s.default }, forSystemGroups)]));
  return {
    realm: table(
      REALM_GROUP_SETTINGS.map((s) => ({ ...s, default: REALM_GROUP_SETTING_DEFAULTS[s.column] })),
      "",
      null,
    ),
    stream: table(CHANNEL_GROUP_SETTINGS, "channel_creator", null),
    group: table(USER_GROUP_SETTINGS, "group_creator", "role:nobody"),
  };
}
