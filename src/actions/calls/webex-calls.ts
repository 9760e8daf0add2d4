/**
 * Webex calls (Zulip's WebexOAuthProvider, make_webex_video_call, register_webex_user and
 * complete_webex_user in zerver/views/video_calls.py; FL 493). Each user authorizes Zulip with
 * their own Webex account once: GET /calls/webex/register sends the browser to Webex, which sends
 * it back to GET /calls/webex/complete with a code that this server exchanges for the user's token
 * (stored per user, `has_webex_token` in register and events). POST /calls/webex/create then
 * makes a meeting as that user: an ad-hoc meeting in a new public space when the user's Webex
 * organization allows public spaces (paid ones), otherwise a meeting in their personal room.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../../config.js";
import type { WebexConfig } from "../../config-video-calls.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { realmUrl } from "../../lib/realm-url.js";
import { readTx, transaction } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";
import { getVideoCallToken, setVideoCallToken } from "../../store/video-call-tokens.js";
import { callCreationFailed, parseJsonObject, providerNotConfigured, providerRequest, type ProviderAnswer } from "./video-call-providers.js";

const PROVIDER = "webex";
/** Zulip's scopes: spark:all is needed to create meetings tied to a space (ad-hoc meetings). */
const WEBEX_SCOPE = "meeting:schedules_read meeting:schedules_write spark:all";
/** A personal-room meeting lasts 40 minutes, as Zulip books it. */
const PERSONAL_MEETING_SECONDS = 40 * 60;

interface WebexToken {
  access_token: string;
  refresh_token?: string;
  /** Seconds since the epoch, computed from the answer's expires_in. */
  expires_at?: number;
}

const invalidToken = () => new ApiError("Invalid Webex access token", "INVALID_VIDEO_CALL_PROVIDER_TOKEN");

function webexConfig(config: Config): WebexConfig {
  if (!config.webex) throw providerNotConfigured("Webex");
  return config.webex;
}

/** Where Webex sends the browser back: the root domain, as Zulip registers it with Webex. */
export function webexRedirectUri(config: Config): string {
  return `${realmUrl(config.externalHost, "")}/calls/webex/complete`;
}

/**
 * The session identifier carried through Webex in `state` (Zulip's sid, an HMAC of the browser's
 * CSRF cookie): here an HMAC of the user and the credential that signed the request in, so a
 * completion link made for one login cannot be used by another (login CSRF).
 */
export function webexSessionId(config: Config, userId: number, credential: string): string {
  return createHmac("sha256", webexConfig(config).clientSecret).update(`parley-webex-sid:${userId}:${credential}`).digest("hex");
}

/** GET /calls/webex/register: the Webex authorization URL to send the browser to. */
export function webexAuthorizationUrl(config: Config, subdomain: string, sid: string): string {
  const webex = webexConfig(config);
  const query = new URLSearchParams({
    response_type: "code",
    client_id: webex.clientId,
    redirect_uri: webexRedirectUri(config),
    scope: WEBEX_SCOPE,
    state: JSON.stringify({ realm: subdomain, sid }),
  });
  return `${webex.apiUrl}authorize?${query.toString()}`;
}

function sameSid(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Webex's token endpoint, for a code or a refresh token; null when Webex refuses. */
async function requestToken(deps: AppDeps, form: Record<string, string>): Promise<WebexToken | null> {
  const webex = webexConfig(deps.config);
  let answer: ProviderAnswer;
  try {
    answer = await providerRequest(`${webex.apiUrl}access_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ ...form, client_id: webex.clientId, client_secret: webex.clientSecret }).toString(),
    });
  } catch {
    return null;
  }
  const body = answer.ok ? parseJsonObject(answer.text) : null;
  if (typeof body?.access_token !== "string") return null;
  const token: WebexToken = { access_token: body.access_token };
  if (typeof body.refresh_token === "string") token.refresh_token = body.refresh_token;
  if (typeof body.expires_in === "number") token.expires_at = deps.clock.now() + body.expires_in;
  return token;
}

/** Stores or forgets the user's token, telling their clients has_webex_token (Zulip's do_set_video_call_provider_token). */
async function setToken(deps: AppDeps, user: UserRow, token: WebexToken | null): Promise<void> {
  await transaction(deps.store, async (tx) => {
    await setVideoCallToken(tx, user.id, PROVIDER, token === null ? null : JSON.stringify(token));
    publishOnCommit(tx, deps.events, { type: "has_webex_token", value: token !== null }, [user.id]);
  });
}

/** GET /calls/webex/complete: checks the session identifier, then trades the code for the user's token. */
export async function completeWebexAuthorization(deps: AppDeps, user: UserRow, code: string, sid: string, expectedSid: string): Promise<void> {
  webexConfig(deps.config);
  if (!sameSid(sid, expectedSid)) throw new ApiError("Invalid Webex session identifier");
  const token = await requestToken(deps, { grant_type: "authorization_code", code, redirect_uri: webexRedirectUri(deps.config) });
  if (!token) throw new ApiError("Invalid Webex credentials");
  await setToken(deps, user, token);
}

/** Whether the user has a Webex token (register's has_webex_token). */
export async function hasWebexToken(deps: AppDeps, userId: number): Promise<boolean> {
  return (await getVideoCallToken(readTx(deps.store), userId, PROVIDER)) !== null;
}

/** The user's usable token: refreshed when expired (OAuth2Session's auto-refresh); none or refused: Zulip's invalid-token error. */
async function currentToken(deps: AppDeps, user: UserRow): Promise<WebexToken> {
  const stored = await getVideoCallToken(readTx(deps.store), user.id, PROVIDER);
  const token = stored === null ? null : (parseJsonObject(stored) as WebexToken | null);
  if (!token || typeof token.access_token !== "string") throw invalidToken();
  if (token.expires_at === undefined || token.expires_at > deps.clock.now()) return token;
  const refreshed = token.refresh_token ? await requestToken(deps, { grant_type: "refresh_token", refresh_token: token.refresh_token }) : null;
  if (!refreshed) {
    await setToken(deps, user, null);
    throw invalidToken();
  }
  await transaction(deps.store, (tx) => setVideoCallToken(tx, user.id, PROVIDER, JSON.stringify(refreshed)));
  return refreshed;
}

/** A POST to Webex as the user; a refused token is forgotten (Zulip's oauth_post). */
async function postAsUser(deps: AppDeps, user: UserRow, token: WebexToken, path: string, payload: object): Promise<ProviderAnswer> {
  let answer: ProviderAnswer;
  try {
    answer = await providerRequest(`${webexConfig(deps.config).apiUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(payload),
    });
  } catch {
    throw callCreationFailed("Webex");
  }
  if (answer.status === 401) {
    await setToken(deps, user, null);
    throw invalidToken();
  }
  return answer;
}

/** ISO 8601 with seconds and an explicit UTC offset, as Python's isoformat(timespec="seconds"). */
const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");

/** POST /calls/webex/create: a meeting link made with the user's Webex account. */
export async function createWebexCall(deps: AppDeps, user: UserRow): Promise<string> {
  webexConfig(deps.config);
  const token = await currentToken(deps, user);
  // A public space lets anyone in the Webex organization join its meetings; free organizations
  // may not make one (Webex answers 403), and get a personal-room meeting instead.
  const room = await postAsUser(deps, user, token, "rooms", { title: "Webex Zulip Meeting", isPublic: true, description: "A Webex meeting created via the Zulip client." });
  let payload: object;
  if (room.status === 403) {
    const start = deps.clock.now();
    payload = { scheduledType: "personalRoomMeeting", start: isoSeconds(start), end: isoSeconds(start + PERSONAL_MEETING_SECONDS), title: "Webex Personal Room Meeting" };
  } else {
    const roomId = room.ok ? parseJsonObject(room.text)?.id : undefined;
    if (typeof roomId !== "string") throw new ApiError("Failed to create Webex public room.");
    payload = { adhoc: true, roomId, title: "Webex Ad-hoc meeting" };
  }
  const meeting = await postAsUser(deps, user, token, "meetings", payload);
  const webLink = meeting.ok ? parseJsonObject(meeting.text)?.webLink : undefined;
  if (typeof webLink !== "string" || webLink === "") throw callCreationFailed("Webex");
  return webLink;
}
