/**
 * The text of a missed-message email (Zulip's zerver/lib/email_notifications.py and its
 * missed_message templates, in our words): one email per conversation, the subject naming it
 * (`#channel > topic`, `DMs with …`, `Group DMs with …`), each message with its sender and its
 * content, links back to the conversation in the web client, why the email came, and where to
 * change that. HTML and plain-text bodies say the same.
 */
import { EMPTY_TOPIC_DISPLAY_NAME } from "../../lib/topics.js";
import { htmlToText } from "../../lib/html-text.js";
import { directMessageUrl, messageUrl } from "../../lib/topic-links.js";
import { escapeHtml } from "../../markdown/html.js";
import { TRIGGER, type NotificationTrigger } from "../../policy/notifications.js";

export interface EmailMessage {
  id: number;
  senderName: string;
  /** Rendered HTML (links relative to the realm, as stored). */
  html: string;
}

export type EmailConversation =
  | { kind: "channel"; channelId: number; channelName: string; topic: string }
  | { kind: "direct"; participantIds: number[]; otherNames: string[] };

export interface MissedMessageEmail {
  realmName: string;
  realmUrl: string;
  /** Whether the subject starts with the organization's name (realm_name_in_email_notifications_policy). */
  realmNameInSubject: boolean;
  /** message_content_in_email_notifications: false leaves the content out. */
  includeContent: boolean;
  conversation: EmailConversation;
  messages: EmailMessage[];
  triggers: NotificationTrigger[];
  /** The one-click link that turns these emails off (unsubscribe-links.ts). */
  unsubscribeUrl: string;
  /** The user group whose mention brought the email, when it was a group's (Zulip names it). */
  mentionedGroupName?: string | null;
}

/** "A", "A and B", "A, B, and C" (Zulip's list formatting in subjects). */
function nameList(names: readonly string[]): string {
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")}, and ${names[names.length - 1]}`;
}

function subjectOf(e: MissedMessageEmail): string {
  const c = e.conversation;
  let subject: string;
  if (c.kind === "channel") subject = `#${c.channelName} > ${c.topic === "" ? EMPTY_TOPIC_DISPLAY_NAME : c.topic}`;
  else if (c.otherNames.length <= 1) subject = `DMs with ${c.otherNames[0] ?? "yourself"}`;
  else subject = `Group DMs with ${nameList(c.otherNames)}`;
  return e.realmNameInSubject ? `[${e.realmName}] ${subject}` : subject;
}

/** Why the email came, for the most salient trigger of the batch (Zulip's order). */
function reasonOf(e: MissedMessageEmail): string {
  const c = e.conversation;
  const where = c.kind === "channel" ? `#${c.channelName}` : "";
  const has = (t: NotificationTrigger) => e.triggers.includes(t);
  if (has(TRIGGER.DIRECT_MESSAGE)) return "You are receiving this because you received a direct message.";
  if (has(TRIGGER.MENTION)) {
    return e.mentionedGroupName ? `You are receiving this because @${e.mentionedGroupName} was mentioned.` : "You are receiving this because you were personally mentioned.";
  }
  if (has(TRIGGER.TOPIC_WILDCARD_MENTION) || has(TRIGGER.TOPIC_WILDCARD_MENTION_IN_FOLLOWED_TOPIC)) {
    return `You are receiving this because all topic participants were mentioned in ${where}.`;
  }
  if (has(TRIGGER.STREAM_WILDCARD_MENTION) || has(TRIGGER.STREAM_WILDCARD_MENTION_IN_FOLLOWED_TOPIC)) {
    return `You are receiving this because everyone was mentioned in ${where}.`;
  }
  if (has(TRIGGER.FOLLOWED_TOPIC_EMAIL)) return "You are receiving this because you have email notifications enabled for topics you follow.";
  return `You are receiving this because you have email notifications enabled for ${where}.`;
}

function linkOf(e: MissedMessageEmail, messageId: number): string {
  const c = e.conversation;
  return c.kind === "channel" ? messageUrl(e.realmUrl, c.channelId, c.channelName, c.topic, messageId) : directMessageUrl(e.realmUrl, c.participantIds, messageId);
}

/** Rendered content with its realm-relative links (`/user_uploads/…`, `/#narrow/…`) made absolute. */
const absoluteLinks = (html: string, realmUrl: string) => html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${realmUrl}/`);

export function composeMissedMessageEmail(e: MissedMessageEmail): { subject: string; text: string; html: string } {
  const link = linkOf(e, e.messages[e.messages.length - 1].id);
  const settings = `${e.realmUrl}/#settings/notifications`;
  const reason = reasonOf(e);
  const withheld = "(This email leaves the message out: you turned message content in email notifications off.)";
  const text = [
    ...e.messages.flatMap((m) => [`${m.senderName}:`, e.includeContent ? htmlToText(absoluteLinks(m.html, e.realmUrl)) : withheld, ""]),
    `Reply in ${e.realmName}: ${link}`,
    "",
    "--",
    reason,
    `Manage email notifications: ${settings}`,
    `Unsubscribe from missed-message emails: ${e.unsubscribeUrl}`,
    "",
  ].join("\n");
  const body = e.messages
    .map((m) => `<div class="message"><p><b>${escapeHtml(m.senderName)}</b>:</p>${e.includeContent ? absoluteLinks(m.html, e.realmUrl) : `<p><i>${escapeHtml(withheld)}</i></p>`}</div>`)
    .join("\n");
  const html = [
    "<!DOCTYPE html>",
    `<html><body>`,
    `<h3><a href="${escapeHtml(link)}">${escapeHtml(subjectOf({ ...e, realmNameInSubject: false }))}</a></h3>`,
    body,
    `<p><a href="${escapeHtml(link)}">Reply in ${escapeHtml(e.realmName)}</a></p>`,
    `<hr><p style="color:#666">${escapeHtml(reason)}<br><a href="${escapeHtml(settings)}">Manage email notifications</a> · <a href="${escapeHtml(e.unsubscribeUrl)}">Unsubscribe from missed-message emails</a></p>`,
    "</body></html>",
    "",
  ].join("\n");
  return { subject: subjectOf(e), text, html };
}
