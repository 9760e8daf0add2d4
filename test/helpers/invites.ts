/**
 * Helpers for the invitation tests: a realm whose mail is written as .eml files to a fresh
 * temporary var directory, a reader for those files, and raw calls to the join pages.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../src/config.js";
import { createTestRealm, formEncode, type TestRealm } from "./fixtures.js";
import type { StoreKind } from "./stores.js";

export interface MailRealm extends TestRealm {
  varDir: string;
}

export async function createMailRealm(kind: StoreKind, overrides: Partial<Config> = {}): Promise<MailRealm> {
  const varDir = mkdtempSync(join(tmpdir(), "parley-mail-"));
  const t = await createTestRealm(kind, { varDir, ...overrides });
  const closeRealm = t.close.bind(t);
  return Object.assign(t, {
    varDir,
    async close() {
      await closeRealm();
      rmSync(varDir, { recursive: true, force: true });
    },
  });
}

export interface ReadMail {
  file: string;
  headers: Record<string, string>;
  text: string;
}

/** Every .eml written so far, oldest first, with its base64 body decoded. */
export function readMails(t: MailRealm): ReadMail[] {
  const dir = join(t.varDir, "mail");
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(join(dir, file), "utf8");
    const [head, body] = raw.split("\r\n\r\n");
    const headers: Record<string, string> = {};
    for (const line of head.split("\r\n")) {
      const i = line.indexOf(": ");
      headers[line.slice(0, i).toLowerCase()] = line.slice(i + 2);
    }
    return { file, headers, text: Buffer.from(body.replace(/\r\n/g, ""), "base64").toString("utf8") };
  });
}

export function mailsTo(t: MailRealm, address: string): ReadMail[] {
  return readMails(t).filter((m) => m.headers.to === address);
}

/** The path (below the site root) of the join link in a mail. */
export function joinPath(mail: ReadMail): string {
  const match = /https?:\/\/[^/\s]+(\/join\/[A-Za-z0-9_-]+\/)/.exec(mail.text);
  if (!match) throw new Error(`no join link in ${mail.text}`);
  return match[1];
}

export interface PageResponse {
  status: number;
  body: string;
  headers: Record<string, unknown>;
}

export async function getPage(t: TestRealm, path: string, host = t.host): Promise<PageResponse> {
  const res = await t.app.inject({ method: "GET", url: path, headers: { host } });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}

export async function postForm(t: TestRealm, path: string, form: Record<string, string>, host = t.host): Promise<PageResponse> {
  const res = await t.app.inject({
    method: "POST",
    url: path,
    headers: { host, "content-type": "application/x-www-form-urlencoded" },
    payload: formEncode(form),
  });
  return { status: res.statusCode, body: res.body, headers: res.headers };
}
