/**
 * Push token ids (register-push-device's `token_id`, FL 468): the client identifies its FCM/APNs
 * token by the first 8 bytes of the token's SHA-256, base64-encoded, so the server can tell tokens
 * apart without ever seeing one. Zulip keeps the id as a signed 64-bit integer and reports it back
 * re-encoded as 8 bytes; Parley keeps that canonical base64 text.
 */
import { createHash } from "node:crypto";
import { decodeStrictBase64 } from "./push-encryption.js";

/** The canonical form of a client's token_id, or null when it is not base64 of at most 8 bytes. */
export function canonicalTokenId(text: string): string | null {
  const bytes = decodeStrictBase64(text);
  if (!bytes || bytes.length > 8) return null;
  // Big-endian and signed, as Zulip reads it: shorter values are sign-extended to 8 bytes.
  const fill = bytes.length > 0 && (bytes[0] & 0x80) !== 0 ? 0xff : 0x00;
  return Buffer.concat([Buffer.alloc(8 - bytes.length, fill), bytes]).toString("base64");
}

/** The token id of a platform token (for matching the legacy registration of the same token). */
export function tokenIdOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest().subarray(0, 8).toString("base64");
}
