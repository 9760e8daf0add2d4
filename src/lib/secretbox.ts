/**
 * NaCl's secretbox (XSalsa20 stream cipher + Poly1305 authenticator), which is how Zulip encrypts
 * E2EE mobile notifications to a device's push key (register-push-device, FL 432: keys tagged
 * 0x31 are "libsodium's crypto_secretbox_easy"). node:crypto has neither XSalsa20 nor Poly1305, so
 * both are written here from their specifications (Bernstein: "The Salsa20 family of stream
 * ciphers", "Extending the Salsa20 nonce", "The Poly1305-AES message-authentication code");
 * test/lib/secretbox.test.ts checks them against answers computed with libsodium.
 *
 * `secretboxEasy` returns libsodium's easy form: the 16-byte tag, then the ciphertext.
 */

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]; // "expand 32-byte k"

const rotl = (v: number, n: number) => ((v << n) | (v >>> (32 - n))) >>> 0;

/** The Salsa20 double rounds (20 rounds) over `x`, in place. */
function salsaRounds(x: Uint32Array): void {
  const qr = (a: number, b: number, c: number, d: number) => {
    x[b] ^= rotl((x[a] + x[d]) >>> 0, 7);
    x[c] ^= rotl((x[b] + x[a]) >>> 0, 9);
    x[d] ^= rotl((x[c] + x[b]) >>> 0, 13);
    x[a] ^= rotl((x[d] + x[c]) >>> 0, 18);
  };
  for (let i = 0; i < 10; i++) {
    qr(0, 4, 8, 12);
    qr(5, 9, 13, 1);
    qr(10, 14, 2, 6);
    qr(15, 3, 7, 11);
    qr(0, 1, 2, 3);
    qr(5, 6, 7, 4);
    qr(10, 11, 8, 9);
    qr(15, 12, 13, 14);
  }
}

const words = (bytes: Uint8Array, count: number) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: count }, (_, i) => view.getUint32(i * 4, true));
};

/** The initial state: constants, 32-byte key, and 16 bytes of nonce-and-counter (or HSalsa20 input). */
function state(key: Uint8Array, input16: Uint8Array): Uint32Array {
  const k = words(key, 8);
  const n = words(input16, 4);
  return Uint32Array.from([SIGMA[0], k[0], k[1], k[2], k[3], SIGMA[1], n[0], n[1], n[2], n[3], SIGMA[2], k[4], k[5], k[6], k[7], SIGMA[3]]);
}

/** HSalsa20: derives XSalsa20's subkey from the key and the nonce's first 16 bytes. */
function hsalsa20(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const x = state(key, nonce16);
  salsaRounds(x);
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  [0, 5, 10, 15, 6, 7, 8, 9].forEach((w, i) => view.setUint32(i * 4, x[w], true));
  return out;
}

/** `length` bytes of XSalsa20 keystream for a 32-byte key and 24-byte nonce. */
function xsalsa20Stream(key: Uint8Array, nonce: Uint8Array, length: number): Uint8Array {
  const subkey = hsalsa20(key, nonce.subarray(0, 16));
  const out = new Uint8Array(length);
  const input = new Uint8Array(16);
  input.set(nonce.subarray(16, 24), 0);
  for (let block = 0; block * 64 < length; block++) {
    new DataView(input.buffer).setUint32(8, block, true);
    const initial = state(subkey, input);
    const x = Uint32Array.from(initial);
    salsaRounds(x);
    const bytes = new Uint8Array(64);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < 16; i++) view.setUint32(i * 4, (x[i] + initial[i]) >>> 0, true);
    out.set(bytes.subarray(0, Math.min(64, length - block * 64)), block * 64);
  }
  return out;
}

const leBigInt = (bytes: Uint8Array) => bytes.reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n);

/** Poly1305 of `message` under a one-time 32-byte key. */
function poly1305(key: Uint8Array, message: Uint8Array): Uint8Array {
  const p = (1n << 130n) - 5n;
  const r = leBigInt(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = leBigInt(key.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < message.length; i += 16) {
    const block = message.subarray(i, i + 16);
    acc = ((acc + leBigInt(block) + (1n << BigInt(8 * block.length))) * r) % p;
  }
  let tag = (acc + s) & ((1n << 128n) - 1n);
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++, tag >>= 8n) out[i] = Number(tag & 0xffn);
  return out;
}

function checkSizes(key: Uint8Array, nonce: Uint8Array): void {
  if (key.length !== 32 || nonce.length !== 24) throw new Error("secretbox needs a 32-byte key and a 24-byte nonce");
}

/** crypto_secretbox_easy: tag (16 bytes) then ciphertext. */
export function secretboxEasy(message: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array {
  checkSizes(key, nonce);
  const stream = xsalsa20Stream(key, nonce, 32 + message.length);
  const ciphertext = message.map((b, i) => b ^ stream[32 + i]);
  const out = new Uint8Array(16 + message.length);
  out.set(poly1305(stream.subarray(0, 32), ciphertext), 0);
  out.set(ciphertext, 16);
  return out;
}

/** crypto_secretbox_open_easy: the message, or null when the tag does not match. */
export function secretboxOpenEasy(box: Uint8Array, nonce: Uint8Array, key: Uint8Array): Uint8Array | null {
  checkSizes(key, nonce);
  if (box.length < 16) return null;
  const ciphertext = box.subarray(16);
  const stream = xsalsa20Stream(key, nonce, 32 + ciphertext.length);
  const expected = poly1305(stream.subarray(0, 32), ciphertext);
  let difference = 0;
  for (let i = 0; i < 16; i++) difference |= expected[i] ^ box[i];
  if (difference !== 0) return null;
  return ciphertext.map((b, i) => b ^ stream[32 + i]);
}
