/**
 * Helpers for the upload tests: a realm whose uploads go to a fresh temporary directory, a raw
 * multipart encoder (so tests control the exact filename bytes a client sends), and calls to
 * `POST /user_uploads` and the file URLs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../src/config.js";
import { createTestRealm, type TestRealm, type UserName } from "./fixtures.js";
import { basicAuth } from "./http.js";
import type { StoreKind } from "./stores.js";

export interface UploadRealm extends TestRealm {
  uploadsDir: string;
}

export async function createUploadRealm(kind: StoreKind, overrides: Partial<Config> = {}): Promise<UploadRealm> {
  const uploadsDir = mkdtempSync(join(tmpdir(), "parley-uploads-"));
  const t = await createTestRealm(kind, { uploadsDir, ...overrides });
  const closeRealm = t.close.bind(t);
  return Object.assign(t, {
    uploadsDir,
    async close() {
      await closeRealm();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  });
}

export interface Part {
  field?: string;
  /** Written into the part header as raw UTF-8, `"` escaped as %22 the way browsers do. */
  filename?: string;
  contentType?: string;
  content: string | Buffer;
}

/** A multipart/form-data body; a part without `filename` is a plain field. */
export function multipartBody(parts: readonly Part[]): { payload: Buffer; contentType: string } {
  const boundary = "----parley-test-boundary-7MA4YWxkTrZu0gW";
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    let disposition = `form-data; name="${part.field ?? `file-${i}`}"`;
    if (part.filename !== undefined) disposition += `; filename="${part.filename.replace(/"/g, "%22")}"`;
    const headers = [`Content-Disposition: ${disposition}`];
    if (part.filename !== undefined) headers.push(`Content-Type: ${part.contentType ?? "application/octet-stream"}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${headers.join("\r\n")}\r\n\r\n`, "utf8"));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, "utf8"));
    chunks.push(Buffer.from("\r\n"));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

function wrap(res: { statusCode: number; headers: RawResponse["headers"]; body: string; rawPayload: Buffer }): RawResponse {
  return { status: res.statusCode, headers: res.headers, body: res.body, rawPayload: res.rawPayload, json: () => JSON.parse(res.body) };
}

export async function uploadParts(t: TestRealm, who: UserName, parts: readonly Part[]): Promise<RawResponse> {
  const { payload, contentType } = multipartBody(parts);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/user_uploads",
    headers: { host: t.host, authorization: basicAuth(t.users[who]), "content-type": contentType },
    payload,
  });
  return wrap(res);
}

/** Uploads one file and returns the success body (url, uri, filename). */
export async function uploadFile(t: TestRealm, who: UserName, filename: string, content: string | Buffer, contentType?: string) {
  const res = await uploadParts(t, who, [{ filename, content, contentType }]);
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.body}`);
  return res.json() as { url: string; uri: string; filename: string };
}

/** GETs a URL at the site root (not /api/v1), as a user or anonymously. */
export async function fetchUrl(t: TestRealm, who: UserName | null, url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const auth: Record<string, string> = who ? { authorization: basicAuth(t.users[who]) } : {};
  const res = await t.app.inject({ method: "GET", url, headers: { host: t.host, ...auth, ...headers } });
  return wrap(res);
}
