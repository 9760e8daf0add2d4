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
  /** The HTML alternative, when the mail has one (multipart/alternative). */
  html?: string;
}

/** Headers and the base64 body of one part (or of a whole single-part mail). */
function readPart(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.indexOf("\r\n\r\n");
  const headers: Record<string, string> = {};
  for (const line of raw.slice(0, at).split("\r\n")) {
    const i = line.indexOf(": ");
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 2);
  }
  return { headers, body: Buffer.from(raw.slice(at + 4).replace(/\r\n/g, ""), "base64").toString("utf8") };
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
    const boundary = /boundary="([^"]+)"/.exec(raw.slice(0, raw.indexOf("\r\n\r\n")))?.[1];
    if (!boundary) {
      const { headers, body } = readPart(raw);
      return { file, headers, text: body };
    }
    const { headers } = readPart(raw.slice(0, raw.indexOf("\r\n\r\n") + 4));
    const parts = raw.split(`--${boundary}`).slice(1, -1).map((p) => readPart(p.replace(/^\r\n/, "")));
    const of = (type: string) => parts.find((p) => p.headers["content-type"].startsWith(type))?.body;
    return { file, headers, text: of("text/plain") ?? "", html: of("text/html") };
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
