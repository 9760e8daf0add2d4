/**
 * Video call URLs (Zulip's zerver/views/video_calls.py). BigBlueButton: GET
 * /calls/bigbluebutton/create hands out a join link on this server carrying the meeting's id,
 * name, voice-only flag and the creating user (who becomes its moderator), signed so that nobody
 * can alter it to reach another meeting (Zulip signs it with its Signer; Parley with an HMAC
 * keyed by the BigBlueButton secret). Refused when BIG_BLUE_BUTTON_URL/SECRET are not set.
 */
import { createHmac, randomInt } from "node:crypto";
import type { Config } from "../config.js";
import { ApiError } from "../errors.js";
import type { UserRow } from "../store/types.js";

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
