/**
 * Zulip's links to places (api/message-formatting, "Links to channels, topics, and messages"):
 *
 *   #**channel**            <a class="stream" data-stream-id="9" href="/#narrow/channel/9-announce">#announce</a>
 *   #**channel>topic**      <a class="stream-topic" data-stream-id="9"
 *                             href="/#narrow/channel/9-announce/topic/Zulip.20updates/with/214">#announce &gt; Zulip updates</a>
 *   #**channel>topic@123**  <a class="message-link" href="/#narrow/channel/9-announce/topic/Zulip.20updates/near/123">… @ 💬</a>
 *
 * A topic link carries `/with/<id>` (FL 347): the latest message of the topic the author can read
 * (FL 400), looked up before rendering (MarkdownContext.topicMessageIds); without one (an empty
 * topic) the href ends at the topic. The empty topic is valid in both topic and message links
 * (FL 346) and shows as an emphasised "general chat". Like mentions, a link must start the text
 * or follow whitespace or one of ' " ( { [ / <, and names the realm does not know stay text.
 */
import type { StateInline } from "markdown-it";
import { element, escapeHtml, openTag, pushHtml } from "./html.js";
import { delimited, startAllowed } from "./mentions.js";
import { topicLinkKey } from "./references.js";
import type { RenderEnv } from "./types.js";

/** What Zulip shows for the empty topic inside links (Message.EMPTY_TOPIC_FALLBACK_NAME). */
const EMPTY_TOPIC_LINK_TEXT = "general chat";

/** Zulip's URL-fragment encoding: percent-encode all but [A-Za-z0-9_.~-], then "." -> "%2E", "%" -> ".". */
export function hashEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => "%" + ch.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

export function channelSlug(id: number, name: string): string {
  return `${id}-${hashEncode(name.replace(/ /g, "-"))}`;
}

/** `#channel > topic`, the empty topic emphasised, then `suffix`; escaped HTML. */
function linkText(channelName: string, topic: string, suffix = ""): string {
  const topicHtml = topic === "" ? `<em>${EMPTY_TOPIC_LINK_TEXT}</em>` : escapeHtml(topic);
  return `${escapeHtml(`#${channelName} > `)}${topicHtml}${escapeHtml(suffix)}`;
}

export function channelLink(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (!src.startsWith("#**", start) || !startAllowed(src, start)) return false;
  const found = delimited(state, start + 3, "**");
  if (!found) return false;
  const separator = found.name.indexOf(">");
  const channelName = separator < 0 ? found.name : found.name.slice(0, separator);
  const env = state.env as RenderEnv;
  const channel = env.ctx.channelsByName.get(channelName.toLowerCase());
  if (!channel) return false;
  if (!silent) {
    env.result.linkedChannelIds.add(channel.id);
    env.result.hasLink = true;
    const base = `/#narrow/channel/${channelSlug(channel.id, channel.name)}`;
    if (separator < 0) {
      pushHtml(state, element("a", [["class", "stream"], ["data-stream-id", String(channel.id)], ["href", base]], `#${channel.name}`));
    } else {
      const topicPart = found.name.slice(separator + 1);
      const near = /^(.*)@(\d+)$/s.exec(topicPart);
      const topic = near ? near[1] : topicPart;
      const href = `${base}/topic/${hashEncode(topic)}`;
      if (near) {
        pushHtml(state, openTag("a", [["class", "message-link"], ["href", `${href}/near/${near[2]}`]]) + linkText(channel.name, topic, " @ 💬") + "</a>");
      } else {
        const withId = env.ctx.topicMessageIds?.get(topicLinkKey(channelName, topic));
        const attrs: [string, string][] = [["class", "stream-topic"], ["data-stream-id", String(channel.id)], ["href", withId === undefined ? href : `${href}/with/${withId}`]];
        pushHtml(state, openTag("a", attrs) + linkText(channel.name, topic) + "</a>");
      }
    }
  }
  state.pos = found.end;
  return true;
}
