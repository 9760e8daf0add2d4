/**
 * Short-lived file URLs (Zulip's get-file-temporary-url, OpenAPI `GET /user_uploads/{realm_id_str}/
 * {filename}`): `/user_uploads/temporary/{token}/{filename}` works without credentials for 60
 * seconds, e.g. for handing a download to a browser or media player.
 *
 * The token is stateless, so any server process can check it: `{attachment id}.{user id}.{expiry}.
 * {mac}`, the MAC being HMAC-SHA256 over those three numbers keyed by the requesting user's API key.
 * Rotating the key (or deactivating the user) therefore revokes every URL they obtained, and the
 * server re-checks the user's access to the file when the URL is used.
 */
import { createHmac } from "node:crypto";
import { constantTimeEqual } from "../lib/secrets.js";
import { encodeSegment } from "./names.js";

export const TEMPORARY_URL_SECONDS = 60;

export interface TemporaryGrant {
  attachmentId: number;
  userId: number;
  expires: number;
}

function mac(grant: TemporaryGrant, key: string): string {
  return createHmac("sha256", key).update(`temporary-upload:${grant.attachmentId}:${grant.userId}:${grant.expires}`).digest("base64url");
}

export function temporaryUrl(grant: TemporaryGrant, key: string, fileName: string): string {
  const token = `${grant.attachmentId}.${grant.userId}.${grant.expires}.${mac(grant, key)}`;
  return `/user_uploads/temporary/${token}/${encodeSegment(fileName)}`;
}

/** The grant a token claims, unverified; null when it is not even well-formed. */
export function parseTemporaryToken(token: string): (TemporaryGrant & { mac: string }) | null {
  const m = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  return { attachmentId: Number(m[1]), userId: Number(m[2]), expires: Number(m[3]), mac: m[4] };
}

/** Whether the claimed grant was issued with this key and is still valid at `now` (UTC seconds). */
export function verifyTemporaryGrant(claimed: TemporaryGrant & { mac: string }, key: string, now: number): boolean {
  return now <= claimed.expires && constantTimeEqual(claimed.mac, mac(claimed, key));
}
