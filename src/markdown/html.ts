/** Building HTML fragments for our own tokens; every user-controlled string passes through here. */
import type { StateInline, Token } from "markdown-it";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/** `<tag a="v">` with attributes in the given order; values are escaped, undefined ones skipped. */
export function openTag(tag: string, attrs: [string, string | undefined][]): string {
  let out = "<" + tag;
  for (const [name, value] of attrs) {
    if (value !== undefined) out += ` ${name}="${escapeHtml(value)}"`;
  }
  return out + ">";
}

/** `<tag …>escaped text</tag>` */
export function element(tag: string, attrs: [string, string | undefined][], text: string): string {
  return openTag(tag, attrs) + escapeHtml(text) + `</${tag}>`;
}

/**
 * Token type for HTML we generated ourselves (mentions, emoji, math…). markdown-it's own
 * html_inline tokens never appear because raw HTML is disabled, so this type is ours alone,
 * and later passes (autolinks, Unicode emoji) leave its content untouched.
 */
export const ZULIP_HTML = "zulip_html";

export function pushHtml(state: StateInline, html: string): Token {
  const token = state.push(ZULIP_HTML, "", 0);
  token.content = html;
  return token;
}
