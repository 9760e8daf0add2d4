/**
 * Encrypting E2EE mobile notifications to a device's push key, as Zulip does since FL 432
 * (register-push-device's `push_key`): the key is 33 bytes, a tag byte naming the cryptosystem
 * (0x31: libsodium's secretbox, the only one defined) and a 32-byte secret key. A notification's
 * `encrypted_data` is base64 of a fresh 24-byte nonce followed by crypto_secretbox_easy of the
 * UTF-8 JSON payload, which is how the mobile app unpacks it (zulip-flutter's
 * PushKeyStore.decryptNotification: nonce first, then the secretbox). The relay and the platform
 * push services see only ciphertext; the server keeps the key to encrypt to, nothing else.
 */
import { randomBytes } from "node:crypto";
import { secretboxEasy } from "./secretbox.js";

export const PUSH_KEY_TAG_SECRETBOX = 0x31;
const NONCE_BYTES = 24;

/** Strict standard base64 (RFC 4648, padded), as Python's b64decode(validate=True) accepts it. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeStrictBase64(text: string): Buffer | null {
  return STRICT_BASE64.test(text) ? Buffer.from(text, "base64") : null;
}

/** The secret key of a push key as the client sent it (base64), or null when it is not one. */
export function parsePushKey(text: string): Uint8Array | null {
  const bytes = decodeStrictBase64(text);
  if (!bytes || bytes.length !== 33 || bytes[0] !== PUSH_KEY_TAG_SECRETBOX) return null;
  return Uint8Array.from(bytes.subarray(1));
}

/** `encrypted_data` for one device: base64(nonce ‖ secretbox(JSON payload)). */
export function encryptForPushKey(secretKey: Uint8Array, payload: unknown): string {
  const nonce = Uint8Array.from(randomBytes(NONCE_BYTES));
  const box = secretboxEasy(new TextEncoder().encode(JSON.stringify(payload)), nonce, secretKey);
  return Buffer.concat([nonce, box]).toString("base64");
}
