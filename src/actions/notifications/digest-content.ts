/**
 * The text of a digest email (Zulip's zerver/emails/digest templates, in our words): the hot
 * conversations of the user's channels (each with its participants, its first messages and how
 * many more there are), the channels created lately, a link back to the organization, and the
 * one-click unsubscribe link. HTML and plain-text bodies say the same.
 */
import { htmlToText } from "../../lib/html-text.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../../lib/topics.js";
import { escapeHtml } from "../../markdown/html.js";

export interface DigestConversation {
  channelName: string;
  topic: string;
  /** Absolute link to the topic. */
  url: string;
  participants: string[];
  samples: Array<{ senderName: string; html: string }>;
  /** Human messages beyond the samples. */
  moreCount: number;
}

export interface DigestEmail {
  realmName: string;
  realmUrl: string;
  hot: DigestConversation[];
  newChannels: Array<{ name: string; url: string }>;
  unsubscribeUrl: string;
}

const topicName = (topic: string) => (topic === "" ? EMPTY_TOPIC_DISPLAY_NAME : topic);
const absoluteLinks = (html: string, realmUrl: string) => html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${realmUrl}/`);
const more = (n: number) => (n === 1 ? "1 more message" : `${n} more messages`);

export function composeDigestEmail(e: DigestEmail): { subject: string; text: string; html: string } {
  const subject = `${e.realmName} digest: what you missed`;
  const settings = `${e.realmUrl}/#settings/notifications`;
  const text: string[] = [`Here is what happened in ${e.realmName} while you were away.`, ""];
  const html: string[] = ["<!DOCTYPE html>", "<html><body>", `<p>Here is what happened in <a href="${escapeHtml(e.realmUrl)}">${escapeHtml(e.realmName)}</a> while you were away.</p>`];
  if (e.hot.length > 0) {
    text.push("Hot conversations", "");
    html.push("<h2>Hot conversations</h2>");
    for (const c of e.hot) {
      const title = `#${c.channelName} > ${topicName(c.topic)}`;
      text.push(`${title} (${c.url})`, `Participants: ${c.participants.join(", ")}`);
      html.push(`<h3><a href="${escapeHtml(c.url)}">${escapeHtml(title)}</a></h3>`, `<p style="color:#666">${escapeHtml(c.participants.join(", "))}</p>`);
      for (const m of c.samples) {
        text.push(`  ${m.senderName}: ${htmlToText(absoluteLinks(m.html, e.realmUrl)).replace(/\n/g, "\n    ")}`);
        html.push(`<div class="message"><p><b>${escapeHtml(m.senderName)}</b>:</p>${absoluteLinks(m.html, e.realmUrl)}</div>`);
      }
      if (c.moreCount > 0) {
        text.push(`  … and ${more(c.moreCount)}`);
        html.push(`<p><a href="${escapeHtml(c.url)}">… and ${more(c.moreCount)}</a></p>`);
      }
      text.push("");
    }
  }
  if (e.newChannels.length > 0) {
    const names = e.newChannels.map((c) => `#${c.name}`).join(", ");
    text.push(`New channels: ${names}`, "");
    html.push(`<h2>New channels</h2>`, `<p>${e.newChannels.map((c) => `<a href="${escapeHtml(c.url)}">#${escapeHtml(c.name)}</a>`).join(", ")}</p>`);
  }
  text.push(`Catch up in ${e.realmName}: ${e.realmUrl}`, "", "--", `Unsubscribe from digest emails: ${e.unsubscribeUrl}`, `Manage email notifications: ${settings}`, "");
  html.push(
    `<p><a href="${escapeHtml(e.realmUrl)}">Catch up in ${escapeHtml(e.realmName)}</a></p>`,
    `<hr><p style="color:#666"><a href="${escapeHtml(e.unsubscribeUrl)}">Unsubscribe from digest emails</a> · <a href="${escapeHtml(settings)}">Manage email notifications</a></p>`,
    "</body></html>",
    "",
  );
  return { subject, text: text.join("\n"), html: html.join("\n") };
}
