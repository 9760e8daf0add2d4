/**
 * A stand-in for the mobile push relay: a real HTTP server on 127.0.0.1 that records every request,
 * answers as told (success, a 5xx, a refusal), and can be stopped to make it unreachable. Also the
 * device side of lib/push-encryption.ts, written from its documented format, to open what the
 * server encrypted.
 */
import { createDecipheriv, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface BouncerRequest {
  method: string;
  path: string;
  contentType: string;
  body: string;
}

export interface Bouncer {
  url: string;
  requests: BouncerRequest[];
  /** The status and body of the next answers (200 `{"result":"success"}` by default). */
  answer: { status: number; body: string };
  stop(): Promise<void>;
}

export async function startBouncer(): Promise<Bouncer> {
  const requests: BouncerRequest[] = [];
  const bouncer = { requests, answer: { status: 200, body: '{"result":"success","msg":""}' } } as Bouncer;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", path: req.url ?? "", contentType: req.headers["content-type"] ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(bouncer.answer.status, { "content-type": "application/json" }).end(bouncer.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  bouncer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  bouncer.stop = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return bouncer;
}

const rawOf = (publicKey: KeyObject) => Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");

/** A device key pair; `publicKey` is the base64 text a client registers. */
export function deviceKeyPair(): { publicKey: string; privateKey: KeyObject } {
  const pair = generateKeyPairSync("x25519");
  return { publicKey: rawOf(pair.publicKey).toString("base64"), privateKey: pair.privateKey };
}

/** Opens a version-1 sealed payload with the device's private key (lib/push-encryption.ts). */
export function openSealed(sealed: string, privateKey: KeyObject): unknown {
  const bytes = Buffer.from(sealed, "base64");
  if (bytes[0] !== 1) throw new Error(`unknown version ${bytes[0]}`);
  const header = bytes.subarray(0, 33);
  const ephemeralRaw = bytes.subarray(1, 33);
  const nonce = bytes.subarray(33, 45);
  const ciphertext = bytes.subarray(45, bytes.length - 16);
  const tag = bytes.subarray(bytes.length - 16);
  // A JWK is the one raw-key import node:crypto offers for X25519.
  const ephemeral = createPublicKey({ key: { kty: "OKP", crv: "X25519", x: ephemeralRaw.toString("base64url") }, format: "jwk" });
  const shared = diffieHellman({ privateKey, publicKey: ephemeral });
  const salt = Buffer.concat([ephemeralRaw, rawOf(createPublicKey(privateKey))]);
  const key = Buffer.from(hkdfSync("sha256", shared, salt, "parley-e2ee-push-v1", 32));
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(header);
  decipher.setAuthTag(tag);
  return JSON.parse(Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8"));
}
