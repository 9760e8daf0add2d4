/**
 * The video call providers' server settings (Zulip's names, read from the environment by
 * config.ts): each provider is offered only when all of its settings are set, and a partial set is
 * a start-up error naming the missing one, rather than a provider that fails on every call.
 * Zulip: templates/zerver/integrations/{nextcloud-talk,constructor-groups,webex}.md.
 */

/** Zulip's NEXTCLOUD_SERVER, NEXTCLOUD_TALK_USERNAME and nextcloud_talk_password. */
export interface NextcloudTalkConfig {
  server: string;
  username: string;
  password: string;
}

/** Zulip's CONSTRUCTOR_GROUPS_URL (the XAPI base) and its access and secret keys. */
export interface ConstructorGroupsConfig {
  url: string;
  accessKey: string;
  secretKey: string;
}

/** Zulip's VIDEO_WEBEX_CLIENT_ID, video_webex_client_secret and VIDEO_WEBEX_API_URL (ending in /). */
export interface WebexConfig {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
}

/** Webex's public API, Zulip's default VIDEO_WEBEX_API_URL. */
export const DEFAULT_WEBEX_API_URL = "https://webexapis.com/v1/";

type Fail = (setting: string, message: string) => never;

/** All of `names` set, or none (null); one set without the others is refused. */
function allOrNone(env: NodeJS.ProcessEnv, names: readonly string[], fail: Fail): string[] | null {
  const values = names.map((name) => env[name] ?? "");
  if (values.every((v) => v === "")) return null;
  const missing = names.find((_, i) => values[i] === "");
  if (missing !== undefined) fail(missing, `${names.join(", ")} must be set together (or none of them)`);
  return values;
}

function httpUrl(setting: string, url: string, fail: Fail): string {
  if (!/^https?:\/\/[^/]/.test(url)) fail(setting, `must be an http(s) URL, got ${JSON.stringify(url)}`);
  return url;
}

export function parseNextcloudTalk(env: NodeJS.ProcessEnv, fail: Fail): NextcloudTalkConfig | null {
  const values = allOrNone(env, ["NEXTCLOUD_SERVER", "NEXTCLOUD_TALK_USERNAME", "NEXTCLOUD_TALK_PASSWORD"], fail);
  if (!values) return null;
  const [server, username, password] = values as [string, string, string];
  return { server: httpUrl("NEXTCLOUD_SERVER", server, fail), username, password };
}

export function parseConstructorGroups(env: NodeJS.ProcessEnv, fail: Fail): ConstructorGroupsConfig | null {
  const values = allOrNone(env, ["CONSTRUCTOR_GROUPS_URL", "CONSTRUCTOR_GROUPS_ACCESS_KEY", "CONSTRUCTOR_GROUPS_SECRET_KEY"], fail);
  if (!values) return null;
  const [url, accessKey, secretKey] = values as [string, string, string];
  return { url: httpUrl("CONSTRUCTOR_GROUPS_URL", url, fail).replace(/\/+$/, ""), accessKey, secretKey };
}

export function parseWebex(env: NodeJS.ProcessEnv, fail: Fail): WebexConfig | null {
  const values = allOrNone(env, ["VIDEO_WEBEX_CLIENT_ID", "VIDEO_WEBEX_CLIENT_SECRET"], fail);
  if (!values) return null;
  const [clientId, clientSecret] = values as [string, string];
  const apiUrl = httpUrl("VIDEO_WEBEX_API_URL", env.VIDEO_WEBEX_API_URL || DEFAULT_WEBEX_API_URL, fail);
  return { clientId, clientSecret, apiUrl: apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/` };
}
