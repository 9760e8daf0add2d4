/**
 * Mail through an SMTP server named by a URL (`smtp://user:pass@host:587`, `smtps://…`), with
 * nodemailer's createTransport(url).sendMail API; nodemailer encodes headers and bodies.
 */
import type nodemailer from "nodemailer";
import { loadOnFirstUse } from "../lib/load-on-first-use.js";
import { messageIdOf } from "./eml.js";
import type { MailMessage, MailTransport } from "./transport.js";

/** nodemailer is loaded only when SMTP_URL is set and mail is sent. */
const loadNodemailer = loadOnFirstUse<typeof nodemailer>("nodemailer");

export class SmtpMailTransport implements MailTransport {
  private readonly transporter: ReturnType<typeof nodemailer.createTransport>;

  constructor(url: string) {
    this.transporter = loadNodemailer().createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      date: message.date,
      messageId: message.messageKey ? messageIdOf(message) : undefined,
      headers: message.headers,
    });
  }
}
