/**
 * Outgoing mail (issue 6, item 8): invitation emails and any later notices go through one
 * interface. With SMTP_URL set, mail goes to that SMTP server (smtp.ts); otherwise each message is
 * written as an RFC 822 `.eml` file under `<varDir>/mail/` (eml.ts), which needs no package and
 * lets a developer (or a test) open the mail and follow its links.
 */
import { join } from "node:path";
import type { Config } from "../config.js";
import { FileMailTransport } from "./eml.js";
import { SmtpMailTransport } from "./smtp.js";

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  /** Plain-text body; lines end with "\n" (transports convert as their wire format needs). */
  text: string;
  /** When the message was composed (the Date header). */
  date: Date;
  /** An HTML alternative of `text` (multipart/alternative). */
  html?: string;
  /**
   * A stable identity (the Message-ID's local part): the same notification sent again after a
   * crash carries the same Message-ID, and the .eml transport overwrites the same file.
   */
  messageKey?: string;
  /** Further headers (List-Unsubscribe and List-Unsubscribe-Post: notifications/unsubscribe-links.ts). */
  headers?: Record<string, string>;
}

export interface MailTransport {
  /** Resolves once the message is handed over (written, or accepted by the SMTP server). */
  send(message: MailMessage): Promise<void>;
}

/** One transport per configuration, so an SMTP connection setup is shared by every send. */
const transports = new WeakMap<Config, MailTransport>();

export function mailTransport(config: Config): MailTransport {
  let transport = transports.get(config);
  if (!transport) {
    transport = config.smtpUrl ? new SmtpMailTransport(config.smtpUrl) : new FileMailTransport(join(config.varDir, "mail"));
    transports.set(config, transport);
  }
  return transport;
}
