/**
 * The mail transport used without SMTP: each message becomes one RFC 5322 (822) file,
 * `<dir>/<time>-<random>.eml`, written to a temporary name first and renamed, so a reader never
 * sees half a message. Header values are single lines (any CR/LF in a subject taken from user data
 * becomes a space, so nobody can add headers) and non-ASCII ones are RFC 2047 encoded; the body is
 * UTF-8 in base64, which keeps every line short whatever the text holds.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { randomToken } from "../lib/secrets.js";
import type { MailMessage, MailTransport } from "./transport.js";

const singleLine = (value: string) => value.replace(/[\r\n]+/g, " ");

/** RFC 2047 encoded-word for non-ASCII header text. */
function encodeHeader(value: string): string {
  const line = singleLine(value);
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?UTF-8?B?${Buffer.from(line, "utf8").toString("base64")}?=`;
}

/** The address part of a From/To value, for the Message-ID domain. */
const domainOf = (address: string) => /@([^>\s]+)>?\s*$/.exec(address)?.[1] ?? "localhost";

/** `<key@domain>`: from the message's stable key when it has one, else random. */
export function messageIdOf(message: MailMessage): string {
  return `<${message.messageKey ?? randomToken(16)}@${domainOf(message.from)}>`;
}

/** One UTF-8 body part in base64, lines of 76. */
function base64Part(type: string, content: string): string {
  const body = Buffer.from(content.replace(/\r?\n/g, "\r\n"), "utf8").toString("base64");
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${body.replace(/.{1,76}/g, "$&\r\n")}`;
}

export function formatEml(message: MailMessage): string {
  const headers = [
    `From: ${encodeHeader(message.from)}`,
    `To: ${singleLine(message.to)}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${message.date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: ${messageIdOf(message)}`,
    ...Object.entries(message.headers ?? {}).map(([name, value]) => `${name.replace(/[^A-Za-z0-9-]/g, "")}: ${encodeHeader(value)}`),
    "MIME-Version: 1.0",
  ];
  if (message.html === undefined) return `${headers.join("\r\n")}\r\n${base64Part("text/plain", message.text)}`;
  // Text first, HTML last: readers show the last alternative they can (RFC 2046 5.1.4).
  const boundary = `=_parley_${randomToken(12)}`;
  const parts = [base64Part("text/plain", message.text), base64Part("text/html", message.html)].map((p) => `--${boundary}\r\n${p}`);
  return `${headers.join("\r\n")}\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n${parts.join("")}--${boundary}--\r\n`;
}

export class FileMailTransport implements MailTransport {
  constructor(private readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const name = message.messageKey ? `${message.messageKey}.eml` : `${message.date.getTime()}-${randomToken(9)}.eml`;
    const partial = join(this.dir, `.${name}.partial`);
    await writeFile(partial, formatEml(message), { flag: message.messageKey ? "w" : "wx" });
    await rename(partial, join(this.dir, name));
  }
}
