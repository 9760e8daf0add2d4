/**
 * Video call URLs (Zulip's zerver/views/video_calls.py). BigBlueButton: GET
 * /calls/bigbluebutton/create hands out a join link on this server carrying the meeting's id,
 * name, voice-only flag and the creating user (who becomes its moderator), signed so that nobody
 * can alter it to reach another meeting (Zulip signs it with its Signer; Parley with an HMAC
 * keyed by the BigBlueButton secret). Refused when BIG_BLUE_BUTTON_URL/SECRET are not set.
 */
import { createHash, createHmac, randomInt } from "node:crypto";
import type { Config } from "../../config.js";
import { ApiError } from "../../errors.js";
import type { UserRow } from "../../store/types.js";

/** What a BigBlueButton join link carries (Zulip's signed object, same keys). */
export interface BigBlueButtonMeeting {
  meeting_id: string;
  name: string;
  lock_settings_disable_cam: boolean;
  moderator: number;
}

export const bigBlueButtonNotConfigured = () => new ApiError("BigBlueButton is not configured.");

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`parley-bigbluebutton:${payload}`).digest("base64url");
}

/** The signed `bigbluebutton` parameter of a join link. */
export function signBigBlueButtonMeeting(secret: string, meeting: BigBlueButtonMeeting): string {
  const payload = Buffer.from(JSON.stringify(meeting)).toString("base64url");
  return `${payload}.${sign(secret, payload)}`;
}

/** The meeting a join link names, or null when its signature does not hold. */
export function readBigBlueButtonMeeting(secret: string, signed: string): BigBlueButtonMeeting | null {
  const [payload, signature, extra] = signed.split(".");
  if (!payload || !signature || extra !== undefined || sign(secret, payload) !== signature) return null;
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as BigBlueButtonMeeting;
}

/** GET /calls/bigbluebutton/create: a relative join URL, as Zulip answers. */
export function createBigBlueButtonCall(config: Config, user: UserRow, meetingName: string, voiceOnly: boolean): string {
  if (!config.bigBlueButton) throw bigBlueButtonNotConfigured();
  // Zulip's meeting ids: "zulip-" and twelve random digits.
  const meeting = { meeting_id: `zulip-${randomInt(100_000_000_000, 999_999_999_999)}`, name: meetingName, lock_settings_disable_cam: voiceOnly, moderator: user.id };
  return `/calls/bigbluebutton/join?bigbluebutton=${encodeURIComponent(signBigBlueButtonMeeting(config.bigBlueButton.secret, meeting))}`;
}

/** How long the BigBlueButton server may take to answer `create`, and how much of its answer is read. */
const BBB_TIMEOUT_MS = 10_000;
const BBB_MAX_ANSWER_BYTES = 64 * 1024;

/** BigBlueButton's API signs each call: sha256 of the call name, its query string and the shared secret. */
function bbbCall(base: string, secret: string, call: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  const checksum = createHash("sha256").update(call + query + secret).digest("hex");
  return `${base}api/${call}?${query}&checksum=${checksum}`;
}

function xmlText(xml: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];
}

async function fetchBounded(url: string, fetcher: typeof fetch): Promise<string> {
  const response = await fetcher(url, { signal: AbortSignal.timeout(BBB_TIMEOUT_MS), redirect: "error" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > BBB_MAX_ANSWER_BYTES) throw new Error("answer too large");
  return body.toString("utf8");
}

/**
 * GET /calls/bigbluebutton/join (Zulip's join_bigbluebutton): checks the link's signature, asks
 * the BigBlueButton server to create the meeting (idempotent there: a second visitor gets the same
 * meeting), then answers the signed BigBlueButton join URL to redirect the browser to — as
 * moderator for the user who created the call, as viewer for everyone else. Errors are Zulip's.
 */
export async function joinBigBlueButtonCall(config: Config, user: UserRow, signed: string, fetcher: typeof fetch = fetch): Promise<string> {
  if (!config.bigBlueButton) throw bigBlueButtonNotConfigured();
  const { secret } = config.bigBlueButton;
  const base = config.bigBlueButton.url.endsWith("/") ? config.bigBlueButton.url : `${config.bigBlueButton.url}/`;
  let meeting: BigBlueButtonMeeting | null;
  try {
    meeting = readBigBlueButtonMeeting(secret, signed);
  } catch {
    meeting = null;
  }
  if (!meeting || typeof meeting.meeting_id !== "string" || typeof meeting.name !== "string") throw new ApiError("Invalid signature.");
  let answer: string;
  try {
    answer = await fetchBounded(
      bbbCall(base, secret, "create", { meetingID: meeting.meeting_id, name: meeting.name, lockSettingsDisableCam: String(Boolean(meeting.lock_settings_disable_cam)) }),
      fetcher,
    );
  } catch {
    throw new ApiError("Error connecting to the BigBlueButton server.");
  }
  if (xmlText(answer, "messageKey") === "checksumError") throw new ApiError("Error authenticating to the BigBlueButton server.");
  if (xmlText(answer, "returncode") !== "SUCCESS") throw new ApiError("BigBlueButton server returned an unexpected error.");
  return bbbCall(base, secret, "join", {
    meetingID: meeting.meeting_id,
    role: meeting.moderator === user.id ? "MODERATOR" : "VIEWER",
    fullName: user.full_name,
    createTime: xmlText(answer, "createTime") ?? "",
  });
}
