/**
 * NaCl secretbox (src/lib/secretbox.ts, over @noble/ciphers) against known answers: each vector's box was computed with
 * libsodium 1.0.18's crypto_secretbox_easy (the system library, called from Python's ctypes) for
 * the message, nonce and key given, all in hex. Empty, short, multi-block (200 bytes) and UTF-8
 * messages.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { secretboxEasy, secretboxOpenEasy } from "../../src/lib/secretbox.js";

const VECTORS: Array<{ message: string; nonce: string; key: string; box: string }> = [
  {
    message: "",
    nonce: "000102030405060708090a0b0c0d0e0f1011121314151617",
    key: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
    box: "28fd82cd7386c5471a24d8ad2a525b6e",
  },
  {
    message: "68656c6c6f",
    nonce: "070707070707070707070707070707070707070707070707",
    key: "0101010101010101010101010101010101010101010101010101010101010101",
    box: "969c04623f3c8f28f8744b199d028d43bc8d2ad6b8",
  },
  {
    message:
      "00070e151c232a31383f464d545b626970777e858c939aa1a8afb6bdc4cbd2d9e0e7eef5fc030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe050c131a21282f363d444b525960676e757c838a91989fa6adb4bbc2c9d0d7dee5ecf3fa01080f161d242b323940474e555c636a71",
    nonce: "05121f2c394653606d7a8794a1aebbc8d5e2effc09162330",
    key: "032241607f9ebddcfb1a39587796b5d4f31231506f8eadcceb0a29486786a5c4",
    box:
      "281cd24955ef508274bc835b5d9311dc1139360e57b732e88b584d8980977372ca4fce6d13c3295a2c617a95b0d8b4876130331d9409e6669e6e6acbfe2c62dcd287335eb2f399f8475db35756e1aade9c3279bd25859b8455fee7157cfdadfcbdd82c7e96818576cbe44cbaafc74c25574cd81c5e479766739e1e743fee61cc10572f351c56dacbf7ae2b0ae9b4f894927e1eee7dc0ce15e9357c80e5a70cd3e43f1bccb60f487cde52c423290c03dcae0dc15a01a773e6394cbbb57eadde6071b12d58eb279402cd9c30067bf370f098a10f9a6fc6f07e",
  },
  {
    message: "7b2274797065223a2274657374222c227265616c6d5f6e616d65223a225a756c69702044657620f09f9982227d",
    nonce: "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0efeeedecebeae9e8",
    key: "00010409101924314051647990a9c4e10021446990b9e4114071a4d9104984c1",
    box: "1f39796fe39e7ba2a734b88a857bb0c9a7310f91a656f8c2c8c8e9f667952682d475e66f780bb7214813900a53faf2b42e0ca302de19b64f25b6352ccf",
  },
];

const hex = (s: string) => Uint8Array.from(Buffer.from(s, "hex"));
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("secretbox (XSalsa20-Poly1305)", () => {
  it("seals as libsodium's crypto_secretbox_easy does", () => {
    for (const v of VECTORS) assert.equal(toHex(secretboxEasy(hex(v.message), hex(v.nonce), hex(v.key))), v.box);
  });

  it("opens what libsodium sealed, and refuses anything altered", () => {
    for (const v of VECTORS) {
      assert.equal(toHex(secretboxOpenEasy(hex(v.box), hex(v.nonce), hex(v.key))!), v.message);
      const tampered = hex(v.box);
      tampered[tampered.length - 1] ^= 1;
      assert.equal(secretboxOpenEasy(tampered, hex(v.nonce), hex(v.key)), null);
      assert.equal(secretboxOpenEasy(hex(v.box), hex(v.nonce), hex(v.key).map((b) => b ^ 1)), null);
    }
    assert.equal(secretboxOpenEasy(new Uint8Array(15), new Uint8Array(24), new Uint8Array(32)), null);
  });

  it("refuses keys and nonces of the wrong size", () => {
    assert.throws(() => secretboxEasy(new Uint8Array(1), new Uint8Array(24), new Uint8Array(31)));
    assert.throws(() => secretboxEasy(new Uint8Array(1), new Uint8Array(23), new Uint8Array(32)));
  });
});
