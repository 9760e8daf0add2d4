/**
 * NaCl's secretbox (XSalsa20 stream cipher + Poly1305 authenticator), which is how Zulip encrypts
 * E2EE mobile notifications to a device's push key (register-push-device, FL 432: keys tagged
 * 0x31 are "libsodium's crypto_secretbox_easy"). node:crypto has neither cipher, so this is
 * @noble/ciphers' audited implementation, in libsodium's easy form: the 16-byte tag, then the
 * ciphertext (test/lib/secretbox.test.ts checks it against answers computed with libsodium).
 */
import { secretbox } from "@noble/ciphers/salsa.js";

export function secretboxEasy(message: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array {
  return secretbox(key, nonce).seal(message);
}

/** The message, or null when the box was not sealed with this key and nonce (or was altered). */
export function secretboxOpenEasy(box: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array | null {
  try {
    return secretbox(key, nonce).open(box);
  } catch {
    return null;
  }
}
