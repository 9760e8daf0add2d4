/**
 * The markdown-it instance, configured once for Zulip's dialect. Everything realm-specific
 * (users, channels, emoji, compiled linkifiers) travels in the per-render env, so one instance
 * serves every realm and nothing is registered per call.
 */
import markdownIt, { type MarkdownIt } from "markdown-it";
import { emptyQuoteAsText, orderedListInterrupts, zulipFence } from "./blocks.js";
import { renderCodeBlock } from "./code.js";
import { emojiShortcode } from "./emoji.js";
import { ZULIP_HTML } from "./html.js";
import { codeSpan, strikethrough, strongEmphasis, underscoreAsText } from "./inline-syntax.js";
import { inlineMath, renderDisplayMath } from "./math.js";
import { channelLink } from "./channel-links.js";
import { mention } from "./mentions.js";
import { addPreviews, PREVIEW_TOKEN } from "./previews.js";
import { sanitizeUrl } from "./sanitize.js";
import { globalTime } from "./time.js";
import { finishLinks, inlineWithQuoteFlag } from "./transforms.js";

function build(): MarkdownIt {
  const md = markdownIt("default", {
    html: false, // raw HTML is shown as text, never passed through
    breaks: true, // Zulip's nl2br: a newline inside a paragraph is a line break
    linkify: false, // we find bare URLs ourselves, with Zulip's rules (autolink.ts)
    typographer: false,
  });
  md.validateLink = (url) => sanitizeUrl(url) !== null;

  // Not in Zulip: reference-style links and definitions (meaningless in chat), setext headings
  // ("Title\n===="), `<https://…>` autolinks (angle brackets stay text), backslash escapes.
  md.block.ruler.disable(["reference", "lheading"]);
  md.inline.ruler.disable(["autolink", "escape", "linkify"]);

  md.block.ruler.at("fence", zulipFence, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.block.ruler.before("blockquote", "zulip_empty_quote", emptyQuoteAsText);
  md.block.ruler.before("list", "zulip_list_interrupt", orderedListInterrupts, { alt: ["paragraph"] });

  md.inline.ruler.at("backticks", codeSpan);
  md.inline.ruler.at("strikethrough", strikethrough);
  md.inline.ruler2.disable("strikethrough");
  md.inline.ruler.before("emphasis", "zulip_underscore", underscoreAsText);
  md.inline.ruler.before("emphasis", "zulip_strong_em", strongEmphasis);
  md.inline.ruler.before("emphasis", "zulip_mention", mention);
  md.inline.ruler.before("emphasis", "zulip_channel_link", channelLink);
  md.inline.ruler.before("emphasis", "zulip_math", inlineMath);
  md.inline.ruler.before("emphasis", "zulip_time", globalTime);
  md.inline.ruler.before("emphasis", "zulip_emoji", emojiShortcode);

  md.core.ruler.at("inline", inlineWithQuoteFlag);
  md.core.ruler.after("text_join", "zulip_links", finishLinks);
  md.core.ruler.after("zulip_links", "zulip_previews", addPreviews);

  const rules = md.renderer.rules;
  rules[ZULIP_HTML] = (tokens, idx) => tokens[idx].content;
  rules[PREVIEW_TOKEN] = (tokens, idx) => tokens[idx].content;
  rules.fence = (tokens, idx) => renderCodeBlock(tokens[idx].content, tokens[idx].info);
  rules.code_block = (tokens, idx) => renderCodeBlock(tokens[idx].content, "");
  rules.zulip_math = (tokens, idx) => renderDisplayMath(tokens[idx].content);
  rules.zulip_spoiler_open = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
  rules.zulip_spoiler_content = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
  rules.zulip_spoiler_close = () => "</div></div>\n";
  return md;
}

let instance: MarkdownIt | undefined;

export function engine(): MarkdownIt {
  instance ??= build();
  return instance;
}
