/**
 * A stand-in for the mobile push relay: a real HTTP server on 127.0.0.1 that records every request,
 * answers as told (success, a 5xx, a refusal), and can be stopped to make it unreachable. Also the
 * device side of lib/push-encryption.ts: push keys, and opening what the server encrypted.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach } from "node:test";
import { secretboxOpenEasy } from "../../src/lib/secretbox.js";
import { createTestRealm, type TestRealm } from "./fixtures.js";
import type { StoreKind } from "./stores.js";

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
  const bouncer = { requests, answer: { ...SUCCESS } } as Bouncer;
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

const SUCCESS = { status: 200, body: '{"result":"success","msg":""}' };

/**
 * For a describe block: a relay and a test realm that uses it, made once; before each test the
 * relay forgets its requests and answers success again.
 */
export function useRelayRealm(kind: StoreKind): { t: TestRealm; bouncer: Bouncer } {
  const ctx = {} as { t: TestRealm; bouncer: Bouncer };
  before(async () => {
    ctx.bouncer = await startBouncer();
    ctx.t = await createTestRealm(kind, { pushBouncerUrl: ctx.bouncer.url });
  });
  after(async () => {
    await ctx.t.close();
    await ctx.bouncer.stop().catch(() => undefined);
  });
  beforeEach(() => {
    ctx.bouncer.requests.length = 0;
    ctx.bouncer.answer = { ...SUCCESS };
  });
  return ctx;
}

/** A mobile app's push key as register-push-device takes it (FL 432): base64 of 0x31 and 32 secret bytes. */
export function newPushKey(): { pushKey: string; secret: Uint8Array } {
  const secret = Uint8Array.from(randomBytes(32));
  return { pushKey: Buffer.concat([Buffer.from([0x31]), secret]).toString("base64"), secret };
}

/**
 * Opens a notification's encrypted_data as the mobile app does (zulip-flutter's
 * PushKeyStore.decryptNotification): a 24-byte nonce, then a secretbox. Throws when the key is not
 * the one it was sealed to. The secretbox itself is checked against libsodium in test/lib.
 */
export function openNotification(encryptedData: string, secret: Uint8Array): unknown {
  const bytes = Uint8Array.from(Buffer.from(encryptedData, "base64"));
  const opened = secretboxOpenEasy(bytes.subarray(24), bytes.subarray(0, 24), secret);
  if (!opened) throw new Error("not sealed to this key");
  return JSON.parse(new TextDecoder().decode(opened));
}

/** The token id the mobile app sends for a platform token: base64 of its SHA-256's first 8 bytes. */
export function tokenIdFor(token: string): string {
  return createHash("sha256").update(token).digest().subarray(0, 8).toString("base64");
}
