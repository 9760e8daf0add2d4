/**
 * Nextcloud Talk and Constructor Groups calls (Zulip's create_nextcloud_talk_url and
 * make_constructor_groups_video_call in zerver/views/video_calls.py): the server asks the
 * provider, with the operator's credentials, for a room anyone with the link can join, and answers
 * its URL. Refused with Zulip's "<provider> credentials have not been configured" when the server
 * has no settings for it. The provider's URL is the operator's, so no private-address check.
 */
import { createHash } from "node:crypto";
import type { Config } from "../../config.js";
import { ApiError } from "../../errors.js";
import type { UserRow } from "../../store/types.js";

/** How long a provider may take to answer (Zulip's VideoCallSession: 5 s, Nextcloud 10 s), and how much of its answer is read. */
const PROVIDER_TIMEOUT_MS = 10_000;
const PROVIDER_MAX_ANSWER_BYTES = 256 * 1024;

export const providerNotConfigured = (provider: string) => new ApiError(`${provider} credentials have not been configured`);
export const callCreationFailed = (provider: string) => new ApiError(`Failed to create ${provider} call`);

export interface ProviderAnswer {
  status: number;
  ok: boolean;
  text: string;
}

/** One bounded request to a provider: no redirects followed, the answer cut off past the size bound. */
export async function providerRequest(url: string, init: { method: string; headers: Record<string, string>; body?: string }, fetcher: typeof fetch = fetch): Promise<ProviderAnswer> {
  const response = await fetcher(url, { ...init, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS), redirect: "manual" });
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > PROVIDER_MAX_ANSWER_BYTES) throw new Error("answer too large");
  return { status: response.status, ok: response.ok, text: body.toString("utf8") };
}

export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Nextcloud Talk limits conversation names to 255 characters. */
const MAX_NEXTCLOUD_TALK_ROOM_NAME_LENGTH = 255;

/** Zulip's truncate_content: cut to the limit in characters, ending with "...". */
function truncateRoomName(name: string): string {
  const chars = [...name];
  return chars.length <= MAX_NEXTCLOUD_TALK_ROOM_NAME_LENGTH ? name : `${chars.slice(0, MAX_NEXTCLOUD_TALK_ROOM_NAME_LENGTH - 3).join("")}...`;
}

/**
 * POST /calls/nextcloud_talk/create: creates a public Talk conversation (roomType 3, guests may
 * join by name) as the configured Nextcloud account, and answers its call URL.
 */
export async function createNextcloudTalkCall(config: Config, roomName: string, fetcher: typeof fetch = fetch): Promise<string> {
  const nextcloud = config.nextcloudTalk;
  if (!nextcloud) throw providerNotConfigured("Nextcloud Talk");
  const credentials = Buffer.from(`${nextcloud.username}:${nextcloud.password}`).toString("base64");
  let answer: ProviderAnswer;
  try {
    answer = await providerRequest(
      new URL("/ocs/v2.php/apps/spreed/api/v4/room", nextcloud.server).href,
      {
        method: "POST",
        headers: { "OCS-APIRequest": "true", accept: "application/json", "content-type": "application/json", authorization: `Basic ${credentials}` },
        body: JSON.stringify({ roomType: 3, roomName: truncateRoomName(roomName) }),
      },
      fetcher,
    );
  } catch (error) {
    throw new ApiError(`Error connecting to the Nextcloud Talk server: ${(error as Error).message}`);
  }
  if (!answer.ok) throw new ApiError(`Error connecting to the Nextcloud Talk server: HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
  const ocs = parseJsonObject(answer.text)?.ocs as { data?: { token?: unknown } } | undefined;
  const token = ocs?.data?.token;
  if (typeof token !== "string" || token === "") throw callCreationFailed("Nextcloud Talk");
  return new URL(`/index.php/call/${encodeURIComponent(token)}`, nextcloud.server).href;
}

/**
 * POST /calls/constructorgroups/create: the user's default room on Constructor Groups (created
 * there on first use, keyed by the creator's email), named after the user, and its URL. The XAPI
 * bearer token is the access key and the SHA-256 of "access|secret", as Constructor documents.
 */
export async function createConstructorGroupsCall(config: Config, user: UserRow, fetcher: typeof fetch = fetch): Promise<string> {
  const groups = config.constructorGroups;
  if (!groups) throw providerNotConfigured("Constructor Groups");
  const hash = createHash("sha256").update(`${groups.accessKey}|${groups.secretKey}`).digest("hex");
  const name = `${user.full_name}'s Zulip room`;
  let answer: ProviderAnswer;
  try {
    answer = await providerRequest(
      `${groups.url}/room/default`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${groups.accessKey}|${hash}`, "content-type": "application/json" },
        body: JSON.stringify({ creator_email: user.delivery_email, name, fallback_name: `${name} (${user.realm_id}-${user.id})` }),
      },
      fetcher,
    );
  } catch {
    throw callCreationFailed("Constructor Groups");
  }
  const url = answer.ok ? parseJsonObject(answer.text)?.url : undefined;
  if (typeof url !== "string" || url === "") throw callCreationFailed("Constructor Groups");
  return url;
}
