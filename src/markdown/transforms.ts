/**
 * Core-rule passes over markdown-it's token stream:
 *
 * - inlineWithQuoteFlag: parses each inline block with env.inQuote set when it sits inside a
 *   blockquote, so the mention rules can silence quoted mentions (Zulip does the same).
 * - finishLinks: gives every link Zulip's href (scheme added, realm links made relative), shows
 *   the URL as text for empty link text, turns images into links or audio players, records
 *   attachments, and finds bare URLs, linkifier matches, emoticons and pasted Unicode emoji in
 *   the remaining text (never inside code or link text).
 */
import type { StateCore, Token } from "markdown-it";
import { findUrls } from "./autolink.js";
import { replaceEmoticons, replaceUnicodeEmoji, type Piece } from "./emoji.js";
import { openTag, ZULIP_HTML } from "./html.js";
import { linkifierMatches } from "./linkifiers.js";
import { relativizeRealmLink, sanitizeUrl, uploadPathId } from "./sanitize.js";
import type { RenderEnv } from "./types.js";

export function inlineWithQuoteFlag(state: StateCore): void {
  const env = state.env as RenderEnv;
  let quoteDepth = 0;
  for (const token of state.tokens) {
    if (token.type === "blockquote_open") quoteDepth++;
    else if (token.type === "blockquote_close") quoteDepth--;
    else if (token.type === "inline") {
      env.inQuote = quoteDepth > 0;
      state.md.inline.parse(token.content, state.md, env, token.children!);
    }
  }
  env.inQuote = false;
}

const AUDIO_EXTENSIONS = /\.(?:aac|flac|m4a|mp3|oga|ogg|opus|wav|weba)$/i;

function finalHref(env: RenderEnv, url: string): string | null {
  const href = sanitizeUrl(url);
  if (href === null) return null;
  const relative = relativizeRealmLink(href, env.ctx.realmUrl);
  env.result.hasLink = true;
  const pathId = uploadPathId(relative, env.ctx.realmUrl);
  if (pathId !== null && !env.result.attachmentPathIds.includes(pathId)) env.result.attachmentPathIds.push(pathId);
  return relative;
}

interface TextLink {
  start: number;
  end: number;
  text: string;
  href: string;
}

/** Bare URLs first, then each linkifier in order, on what is left (Zulip's precedence). */
function textLinks(env: RenderEnv, text: string): TextLink[] {
  const links: TextLink[] = [];
  const consider = (start: number, end: number, matched: string, url: string) => {
    if (links.some((l) => l.start < end && start < l.end)) return;
    const href = sanitizeUrl(url);
    if (href !== null) links.push({ start, end, text: matched, href });
  };
  for (const u of findUrls(text)) consider(u.start, u.end, u.text, u.url);
  for (const linkifier of env.linkifiers) {
    for (const m of linkifierMatches(text, linkifier)) consider(m.start, m.end, m.text, m.url);
  }
  return links.sort((a, b) => a.start - b.start);
}

function emojiPieces(env: RenderEnv, text: string): Piece[] {
  const afterEmoticons = env.ctx.translateEmoticons ? replaceEmoticons(text) : [{ text }];
  return afterEmoticons.flatMap((p) => ("text" in p ? replaceUnicodeEmoji(p.text) : [p]));
}

function makeToken(state: StateCore, type: string, tag: string, nesting: -1 | 0 | 1, content = ""): Token {
  const token = new state.Token(type, tag, nesting);
  token.content = content;
  return token;
}

function splitText(state: StateCore, env: RenderEnv, text: string): Token[] | null {
  const links = textLinks(env, text);
  const out: Token[] = [];
  const plain = (s: string) => {
    for (const piece of emojiPieces(env, s)) {
      out.push("text" in piece ? makeToken(state, "text", "", 0, piece.text) : makeToken(state, ZULIP_HTML, "", 0, piece.html));
    }
  };
  let last = 0;
  for (const link of links) {
    if (link.start > last) plain(text.slice(last, link.start));
    const open = makeToken(state, "link_open", "a", 1);
    open.attrs = [["href", finalHref(env, link.href)!]];
    open.info = "auto";
    out.push(open, makeToken(state, "text", "", 0, link.text), makeToken(state, "link_close", "a", -1));
    last = link.end;
  }
  if (last < text.length) plain(text.slice(last));
  return out.length === 1 && out[0].type === "text" ? null : out;
}

/** An image becomes a link to it (the preview pass shows the picture), or an audio player. */
function imageTokens(state: StateCore, env: RenderEnv, image: Token): Token[] {
  const src = String(image.attrGet("src") ?? "");
  const alt = image.content;
  const href = finalHref(env, src);
  if (href === null) return [makeToken(state, "text", "", 0, alt)];
  if (AUDIO_EXTENSIONS.test(href.replace(/[?#].*$/, ""))) {
    const audio = openTag("audio", [["controls", ""], ["data-original-url", href], ["preload", "metadata"], ["src", href], ["title", alt || undefined]]);
    return [makeToken(state, ZULIP_HTML, "", 0, audio + "</audio>")];
  }
  const open = makeToken(state, "link_open", "a", 1);
  open.attrs = [["href", href]];
  return [open, makeToken(state, "text", "", 0, alt || href), makeToken(state, "link_close", "a", -1)];
}

function finishInline(state: StateCore, env: RenderEnv, children: Token[]): Token[] {
  const out: Token[] = [];
  let linkDepth = 0;
  for (let i = 0; i < children.length; i++) {
    const token = children[i];
    if (token.type === "link_open") {
      linkDepth++;
      if (token.info !== "auto") {
        token.attrSet("href", finalHref(env, String(token.attrGet("href") ?? "")) ?? "");
        // Zulip shows the target when the link text is empty or blank: "[](url)", "[  ](url)".
        const close = children.findIndex((t, j) => j > i && t.type === "link_close");
        const inner = children.slice(i + 1, close);
        if (inner.every((t) => t.type === "text" && t.content.trim() === "")) {
          out.push(token, makeToken(state, "text", "", 0, String(token.attrGet("href"))));
          i = close - 1;
          continue;
        }
      }
      out.push(token);
    } else if (token.type === "link_close") {
      linkDepth--;
      out.push(token);
    } else if (token.type === "image") {
      out.push(...imageTokens(state, env, token));
    } else if (token.type === "text" && linkDepth === 0) {
      const replaced = splitText(state, env, token.content);
      if (replaced) out.push(...replaced);
      else out.push(token);
    } else {
      out.push(token);
    }
  }
  return out;
}

export function finishLinks(state: StateCore): void {
  const env = state.env as RenderEnv;
  for (const token of state.tokens) {
    if (token.type === "inline" && token.children) token.children = finishInline(state, env, token.children);
  }
}
