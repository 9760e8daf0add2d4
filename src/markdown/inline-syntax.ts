/** Inline syntax where Zulip departs from CommonMark. */
import type { StateInline } from "markdown-it";

/**
 * Zulip has no underscore emphasis (`_foo_` and `__init__` stay as typed, which suits code and
 * file names in chat). Consuming underscore runs as text keeps markdown-it's emphasis rule from
 * ever seeing them.
 */
export function underscoreAsText(state: StateInline, silent: boolean): boolean {
  if (state.src[state.pos] !== "_") return false;
  let end = state.pos;
  while (end < state.posMax && state.src[end] === "_") end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

/**
 * `~~text~~` renders as `<del>`. Zulip's rule is simpler than GFM's: the text between the
 * markers has no `~` and no line break, and may start or end with spaces ("~~ a ~~" works).
 */
export function strikethrough(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src[start] !== "~" || src[start + 1] !== "~" || (start > 0 && src[start - 1] === "~")) return false;
  const close = src.indexOf("~", start + 2);
  if (close <= start + 2 || close + 2 > state.posMax || src[close + 1] !== "~" || src[close + 2] === "~") return false;
  if (src.slice(start + 2, close).includes("\n")) return false;
  if (!silent) {
    const oldMax = state.posMax;
    state.push("s_open", "del", 1).markup = "~~";
    state.pos = start + 2;
    state.posMax = close;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push("s_close", "del", -1).markup = "~~";
  }
  state.pos = close + 2;
  return true;
}

/**
 * Code spans keep their content exactly, including leading and trailing spaces (Zulip renders
 * "` x `" as `<code> x </code>`, where CommonMark would strip one space on each side).
 */
export function codeSpan(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const max = state.posMax;
  if (src[state.pos] !== "`") return false;
  let pos = state.pos;
  while (pos < max && src[pos] === "`") pos++;
  const marker = src.slice(state.pos, pos);

  let searchFrom = pos;
  for (;;) {
    const closeStart = src.indexOf("`", searchFrom);
    if (closeStart < 0 || closeStart >= max) break;
    let closeEnd = closeStart;
    while (closeEnd < max && src[closeEnd] === "`") closeEnd++;
    if (closeEnd - closeStart === marker.length) {
      if (!silent) {
        const token = state.push("code_inline", "code", 0);
        token.markup = marker;
        token.content = src.slice(pos, closeStart).replace(/\n/g, " ");
      }
      state.pos = closeEnd;
      return true;
    }
    searchFrom = closeEnd;
  }
  // No closing run of the same length: the backticks are text.
  if (!silent) state.pending += marker;
  state.pos = pos;
  return true;
}

/**
 * `***text***` is bold italic with bold outermost (`<strong><em>`), as Zulip renders it;
 * CommonMark's delimiter algorithm would nest them the other way round.
 */
export function strongEmphasis(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (!src.startsWith("***", start) || /\s/.test(src[start + 3] ?? " ")) return false;
  const close = src.indexOf("***", start + 3);
  if (close < 0 || close + 3 > state.posMax || src[close + 3] === "*") return false;
  const body = src.slice(start + 3, close);
  if (body === "" || /[*\n]/.test(body) || /\s$/.test(body)) return false;
  if (!silent) {
    const oldMax = state.posMax;
    state.push("strong_open", "strong", 1).markup = "**";
    state.push("em_open", "em", 1).markup = "*";
    state.pos = start + 3;
    state.posMax = close;
    state.md.inline.tokenize(state);
    state.posMax = oldMax;
    state.push("em_close", "em", -1).markup = "*";
    state.push("strong_close", "strong", -1).markup = "**";
  }
  state.pos = close + 3;
  return true;
}
