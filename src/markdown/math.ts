/**
 * TeX math through KaTeX: inline `$$…$$` and ```math display blocks, as in Zulip. A formula
 * KaTeX rejects is shown as its source in `<span class="tex-error">`, never as partial markup.
 */
import type katex from "katex";
import type { StateInline } from "markdown-it";
import { loadOnFirstUse } from "../lib/load-on-first-use.js";
import { escapeHtml, pushHtml } from "./html.js";

/** KaTeX is loaded by the first formula, not at start-up (most messages have none). */
const loadKatex = loadOnFirstUse<typeof katex>("katex");

const KATEX_OPTIONS = {
  throwOnError: true,
  // No \href, \url, \includegraphics or other commands that reach outside the formula.
  trust: false,
  // Warnings about non-standard input would go to the console on every render; Zulip accepts such input too.
  strict: "ignore" as const,
  // Bounds the work a hostile formula can cause (macro expansion and sizes).
  maxExpand: 1000,
  maxSize: 100,
};

function renderTex(tex: string, displayMode: boolean): string | null {
  try {
    return loadKatex().renderToString(tex, { ...KATEX_OPTIONS, displayMode });
  } catch {
    return null;
  }
}

/** A ```math block: one display formula, wrapped in a paragraph as Zulip does. */
export function renderDisplayMath(tex: string): string {
  const body = tex.replace(/^\n+|\n+$/g, "");
  const html = renderTex(body, true);
  if (html === null) return `<p><span class="tex-error">${escapeHtml(body)}</span></p>\n`;
  return `<p>${html}</p>\n`;
}

const DOLLAR = 0x24;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
}

/**
 * Inline `$$…$$`, following Zulip's rules: not touching a word character or another `$` on the
 * outside, the body starts with neither `_` nor `$` (so `$$_$$` and `$$$` stay text), may not
 * span lines, and may contain `\$`.
 */
export function inlineMath(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== DOLLAR || src.charCodeAt(start + 1) !== DOLLAR) return false;
  const before = start > 0 ? src[start - 1] : undefined;
  if (before === "$" || isWordChar(before)) return false;
  const first = src[start + 2];
  if (first === undefined || first === "\n" || first === "_" || first === "$") return false;

  let pos = start + 2;
  while (pos < state.posMax) {
    const ch = src[pos];
    if (ch === "\n") return false;
    if (ch === "\\" && src[pos + 1] === "$") {
      pos += 2;
      continue;
    }
    if (ch === "$") break;
    pos++;
  }
  if (pos >= state.posMax || src[pos + 1] !== "$") return false;
  const end = pos + 2;
  const after = src[end];
  if (after === "$" || isWordChar(after)) return false;

  if (!silent) {
    const body = src.slice(start + 2, pos);
    const html = renderTex(body, false);
    pushHtml(state, html ?? `<span class="tex-error">${escapeHtml("$$" + body + "$$")}</span>`);
  }
  state.pos = end;
  return true;
}
