/**
 * Emoji in messages, in Zulip's markup:
 *
 * - `:name:` for a realm emoji -> `<img class="emoji" src=… alt=":name:" title="name">`
 *   (realm emoji win over Unicode emoji of the same name; `:zulip:` is built in);
 * - `:name:` for a Unicode emoji, and a pasted Unicode emoji ->
 *   `<span class="emoji emoji-1f604" role="img" aria-label="smile" title="smile">:smile:</span>`;
 * - with the sender's translate_emoticons setting, `:)` and friends become emoji.
 *
 * An unknown `:name:` stays text. Skin-tone variants and sequences Zulip has no name for stay
 * as the characters that were sent.
 */
import type { StateInline } from "markdown-it";
import { emojiCodeOfText, unicodeEmojiByCode, unicodeEmojiByName, type UnicodeEmoji } from "../lib/emoji.js";
import { element, openTag, pushHtml } from "./html.js";
import { sanitizeUrl } from "./sanitize.js";
import type { RenderEnv } from "./types.js";

const ZULIP_EMOJI_URL = "/static/generated/emoji/images/emoji/unicode/zulip.png";

function titleOf(name: string): string {
  return name.replace(/_/g, " ");
}

function unicodeEmojiHtml(emoji: UnicodeEmoji, shown: string): string {
  const title = titleOf(emoji.name);
  return element(
    "span",
    [["class", `emoji emoji-${emoji.code}`], ["role", "img"], ["aria-label", title], ["title", title]],
    shown,
  );
}

function imageEmojiHtml(src: string, name: string): string {
  return openTag("img", [["src", src], ["class", "emoji"], ["alt", `:${name}:`], ["title", titleOf(name)]]);
}

const SHORTCODE = /:([\p{L}\p{N}_+-]+):/uy;

/** `:name:`; an unknown name is consumed as plain text, as Zulip does. */
export function emojiShortcode(state: StateInline, silent: boolean): boolean {
  if (state.src[state.pos] !== ":") return false;
  SHORTCODE.lastIndex = state.pos;
  const m = SHORTCODE.exec(state.src);
  if (!m || state.pos + m[0].length > state.posMax) return false;
  if (!silent) {
    const name = m[1];
    const realm = (state.env as RenderEnv).ctx.realmEmoji.get(name);
    // The URL comes from our own upload code, but an image source is still checked like a link.
    const realmSrc = realm && !realm.deactivated ? sanitizeUrl(realm.source_url) : null;
    const unicode = unicodeEmojiByName(name);
    if (realmSrc !== null) pushHtml(state, imageEmojiHtml(realmSrc, name));
    else if (name === "zulip") pushHtml(state, imageEmojiHtml(ZULIP_EMOJI_URL, name));
    else if (unicode) pushHtml(state, unicodeEmojiHtml(unicode, m[0]));
    else state.pending += m[0];
  }
  state.pos += m[0].length;
  return true;
}

/** A piece of a text token after emoji replacement: plain text, or markup we generated. */
export type Piece = { text: string } | { html: string };

const EMOTICONS: Record<string, string> = {
  ":)": "slight_smile",
  "(:": "slight_smile",
  ":(": "frown",
  "<3": "heart",
  ";)": "wink",
  ":/": "confused",
  ":D": "smiley",
  ":P": "stuck_out_tongue",
  ":p": "stuck_out_tongue",
  ":O": "open_mouth",
  ":o": "open_mouth",
};
// An emoticon stands alone: no letter, digit or underscore directly before or after it.
const EMOTICON_RE = /(?<![\p{L}\p{N}_])(?::\)|\(:|:\(|<3|;\)|:\/|:D|:P|:p|:O|:o)(?![\p{L}\p{N}_])/gu;

// Unicode's emoji sequence grammar (UTS #51): a flag pair, or emoji with an optional modifier,
// presentation selector, keycap or tag sequence, joined by ZWJs.
const ELEMENT = String.raw`\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?`;
const EMOJI_SEQUENCE = new RegExp(String.raw`\p{RI}\p{RI}|${ELEMENT}(?:\u200D(?:\p{RI}\p{RI}|${ELEMENT}))*`, "gu");
// A lone character that is text by default (digits, #, ↔, ©…) is only an emoji with U+FE0F.
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

function replaceAll(text: string, re: RegExp, render: (match: string) => string | null): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const html = render(m[0]);
    if (html === null) continue;
    if (m.index > last) pieces.push({ text: text.slice(last, m.index) });
    pieces.push({ html });
    last = m.index + m[0].length;
  }
  if (last === 0) return [{ text }];
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

export function replaceEmoticons(text: string): Piece[] {
  if (!/[:;(<]/.test(text)) return [{ text }];
  return replaceAll(text, EMOTICON_RE, (emoticon) => {
    const emoji = unicodeEmojiByName(EMOTICONS[emoticon]);
    return emoji ? unicodeEmojiHtml(emoji, `:${emoji.name}:`) : null;
  });
}

export function replaceUnicodeEmoji(text: string): Piece[] {
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(text)) return [{ text }];
  return replaceAll(text, EMOJI_SEQUENCE, (sequence) => {
    if (TEXT_PRESENTATION.test(sequence)) return null;
    const emoji = unicodeEmojiByCode(emojiCodeOfText(sequence));
    return emoji ? unicodeEmojiHtml(emoji, `:${emoji.name}:`) : null;
  });
}
