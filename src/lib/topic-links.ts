/**
 * Markdown that links to a channel topic or a message, as written into Notification Bot messages
 * about moved topics. `#**channel>topic**` is the short form; names holding characters that
 * would break it (and the empty topic, which it cannot name) get an ordinary Markdown link to the
 * narrow instead, with those characters escaped in the link text.
 */
import { channelSlug, hashEncode } from "../markdown/channel-links.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "./topics.js";

const BREAKS_SHORT_FORM = /[`>*&[\]]|\$\$/;
const ESCAPES: Record<string, string> = {
  "`": "&#96;",
  ">": "&gt;",
  "*": "&#42;",
  "&": "&amp;",
  $$: "&#36;&#36;",
  "[": "&#91;",
  "]": "&#93;",
};

const escapeText = (text: string) => text.replace(/[`>*&[\]]|\$\$/g, (m) => ESCAPES[m]);

/** The text of a Markdown link to a topic: `#channel > topic`, escaped. */
const linkText = (channelName: string, topic: string) => `#${escapeText(channelName)} > ${escapeText(topic === "" ? EMPTY_TOPIC_DISPLAY_NAME : topic)}`;

/** The narrow fragment of a topic, e.g. `#narrow/channel/9-Verona/topic/lunch`. */
export function topicNarrow(channelId: number, channelName: string, topic: string): string {
  return `#narrow/channel/${channelSlug(channelId, channelName)}/topic/${hashEncode(topic)}`;
}

export function topicLinkSyntax(channelId: number, channelName: string, topic: string): string {
  if (topic !== "" && !BREAKS_SHORT_FORM.test(topic) && !BREAKS_SHORT_FORM.test(channelName)) {
    return `#**${channelName}>${topic}**`;
  }
  return `[${linkText(channelName, topic)}](${topicNarrow(channelId, channelName, topic)})`;
}

/**
 * Zulip's get_message_link_syntax: `#**channel>topic@id**`, or, where names would break that
 * form, a Markdown link to the topic near the message with the text `#channel > topic @ 💬`.
 */
export function messageLinkSyntax(channelId: number, channelName: string, topic: string, messageId: number): string {
  if (topic !== "" && !BREAKS_SHORT_FORM.test(topic) && !BREAKS_SHORT_FORM.test(channelName)) {
    return `#**${channelName}>${topic}@${messageId}**`;
  }
  return `[${linkText(channelName, topic)} @ 💬](${topicNarrow(channelId, channelName, topic)}/near/${messageId})`;
}

/** Absolute link to one message in its topic. */
export function messageUrl(realmUrl: string, channelId: number, channelName: string, topic: string, messageId: number): string {
  return `${realmUrl}/${topicNarrow(channelId, channelName, topic)}/near/${messageId}`;
}

/**
 * A Markdown link to a topic that opens at one of its messages: `[#channel > topic](#narrow/…/with/ID)`,
 * as Zulip's reminders name the message they are about.
 */
export function topicWithMessageLink(channelId: number, channelName: string, topic: string, messageId: number): string {
  return `[${linkText(channelName, topic)}](${topicNarrow(channelId, channelName, topic)}/with/${messageId})`;
}

/** Absolute link to one direct message: its conversation (every participant's id, ascending) near it. */
export function directMessageUrl(realmUrl: string, participantIds: readonly number[], messageId: number): string {
  const ids = [...new Set(participantIds)].sort((a, b) => a - b);
  return `${realmUrl}/#narrow/dm/${ids.join(",")}/near/${messageId}`;
}
