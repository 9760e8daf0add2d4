/**
 * Encrypting a push notification to a device's public key (spec 4.21, issue 7 item 6), so the
 * relay and the platform push services see only ciphertext. Built from node:crypto alone, as a
 * sealed box: anyone can encrypt to the key, only the device can open it, and the sender keeps
 * nothing.
 *
 * Format, version 1 (the whole thing base64-encoded):
 *
 *   0x01 | E (32 bytes) | N (12 bytes) | C | T (16 bytes)
 *
 * - E: a fresh X25519 public key, used for this one message;
 * - K = HKDF-SHA256(ikm = X25519(e, D), salt = E | D, info = "parley-e2ee-push-v1", 32 bytes),
 *   where e is E's private key and D the device's public key (32 raw bytes);
 * - N: a random nonce; C, T: AES-256-GCM ciphertext and tag of the UTF-8 JSON payload under K and
 *   N, with the first 33 bytes (0x01 | E) as additional authenticated data.
 *
 * The device opens it with X25519(d, E), the same HKDF, and AES-256-GCM.
 */
import { createCipheriv, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from "node:crypto";

export const PUSH_ENCRYPTION_VERSION = 1;
export const PUSH_ENCRYPTION_INFO = "parley-e2ee-push-v1";

function rawPublicKey(key: KeyObject): Buffer {
  return Buffer.from(key.export({ format: "jwk" }).x as string, "base64url");
}

/**
 * The device key from its base64 (standard or URL-safe) text, or null when it is not a usable
 * X25519 public key (wrong length, or a degenerate point no shared secret can come from).
 */
export function parseDevicePublicKey(text: string): KeyObject | null {
  // 32 bytes are 43 base64 characters plus one padding character.
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return null;
  const raw = Buffer.from(text.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "X25519", x: raw.toString("base64url") }, format: "jwk" });
    diffieHellman({ privateKey: generateKeyPairSync("x25519").privateKey, publicKey: key });
    return key;
  } catch {
    return null;
  }
}

/** Encrypts `payload` (JSON-encoded) to the device key; see the format above. */
export function encryptForDevice(deviceKey: KeyObject, payload: unknown): string {
  const ephemeral = generateKeyPairSync("x25519");
  const ephemeralRaw = rawPublicKey(ephemeral.publicKey);
  const deviceRaw = rawPublicKey(deviceKey);
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: deviceKey });
  const key = Buffer.from(hkdfSync("sha256", shared, Buffer.concat([ephemeralRaw, deviceRaw]), PUSH_ENCRYPTION_INFO, 32));
  const header = Buffer.concat([Buffer.from([PUSH_ENCRYPTION_VERSION]), ephemeralRaw]);
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final()]);
  return Buffer.concat([header, nonce, body, cipher.getAuthTag()]).toString("base64");
}
