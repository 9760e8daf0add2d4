/**
 * Zulip's fenced blocks. A fence is ``` or ~~~ (three or more), optionally followed by a word:
 *
 *   ```python      code, with data-code-language    ```quote / ```quoted   a blockquote
 *   ```math        a KaTeX display formula          ```spoiler Header      a spoiler
 *
 * Quote and spoiler bodies are Markdown, and may contain further fences. As in Zulip, a fence is
 * closed only by a bare fence of exactly the same string (so "````" inside a "```" block is
 * content), and an unclosed fence runs to the end of the message. An info string that is not a
 * plain language word (for instance "~~~~xxx: yyy~~~") does not open a fence at all.
 *
 * Also here: Zulip only treats `>` lines as a blockquote when some line has content, so a lone
 * ">" is the text "&gt;".
 */
import type { StateBlock } from "markdown-it";

interface Fence {
  /** The fence string, e.g. "```" or "~~~~". */
  marker: string;
  kind: "code" | "quote" | "spoiler" | "math";
  lang: string;
  header: string;
}

const FENCE_LINE = /^(`{3,}|~{3,})[ \t]*(.*)$/;
const INFO = /^\{?\.?([a-zA-Z0-9_+\-./#]*)\}?(?:\s+(.*))?$/;

function lineText(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);
}

function parseFence(state: StateBlock, line: number): Fence | null {
  if (state.sCount[line] - state.blkIndent >= 4) return null;
  const m = FENCE_LINE.exec(lineText(state, line));
  if (!m) return null;
  const info = m[2].trim();
  if (m[1][0] === "`" && info.includes("`")) return null; // "```inline```" is a code span
  const parsed = INFO.exec(info);
  if (!parsed) return null;
  const word = parsed[1].toLowerCase();
  const kind = word === "quote" || word === "quoted" ? "quote" : word === "spoiler" ? "spoiler" : word === "math" ? "math" : "code";
  return { marker: m[1], kind, lang: parsed[1], header: parsed[2] ?? "" };
}

function isCloser(state: StateBlock, line: number, marker: string): boolean {
  if (state.sCount[line] - state.blkIndent >= 4) return false;
  return lineText(state, line).trimEnd() === marker;
}

/** The line closing the fence opened at `start`, or `end` if it is never closed. */
function findClose(state: StateBlock, start: number, end: number, fence: Fence): number {
  const open: Fence[] = [fence];
  for (let line = start + 1; line < end; line++) {
    const top = open[open.length - 1];
    if (isCloser(state, line, top.marker)) {
      open.pop();
      if (open.length === 0) return line;
      continue;
    }
    // Inside code only the closer matters; inside a quote or spoiler, fences nest.
    if (top.kind === "quote" || top.kind === "spoiler") {
      const inner = parseFence(state, line);
      if (inner) open.push(inner);
    }
  }
  return end;
}

function tokenizeBody(state: StateBlock, from: number, to: number): void {
  const oldLineMax = state.lineMax;
  const oldParent = state.parentType;
  state.lineMax = to;
  state.parentType = "blockquote";
  state.md.block.tokenize(state, from, to);
  state.lineMax = oldLineMax;
  state.parentType = oldParent;
}

export function zulipFence(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const fence = parseFence(state, startLine);
  if (!fence) return false;
  if (silent) return true;
  const close = findClose(state, startLine, endLine, fence);
  const map: [number, number] = [startLine, close];

  if (fence.kind === "quote") {
    state.push("blockquote_open", "blockquote", 1).map = map;
    tokenizeBody(state, startLine + 1, close);
    state.push("blockquote_close", "blockquote", -1);
  } else if (fence.kind === "spoiler") {
    state.push("zulip_spoiler_open", "div", 1).map = map;
    if (fence.header.trim() !== "") {
      state.push("paragraph_open", "p", 1);
      const inline = state.push("inline", "", 0);
      inline.content = fence.header.trim();
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      state.push("paragraph_close", "p", -1);
    }
    state.push("zulip_spoiler_content", "", 0);
    tokenizeBody(state, startLine + 1, close);
    state.push("zulip_spoiler_close", "div", -1);
  } else {
    const token = state.push(fence.kind === "math" ? "zulip_math" : "fence", "code", 0);
    token.info = fence.kind === "math" ? "" : fence.lang;
    token.content = state.getLines(startLine + 1, close, state.sCount[startLine], true);
    token.markup = fence.marker;
    token.map = map;
  }
  state.line = close < endLine ? close + 1 : close;
  return true;
}

/**
 * Runs before markdown-it's blockquote rule. In Zulip, `>` lines only make a quote when some
 * line has content: a block of nothing but empty `>` lines is a paragraph of ">" characters.
 * And a block whose `>` lines are all empty but which goes on with unmarked text quotes that
 * text (">\n>\ntext"), where CommonMark would leave an empty quote followed by a paragraph.
 */
export function emptyQuoteAsText(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (silent || state.sCount[startLine] - state.blkIndent >= 4) return false;
  let line = startLine;
  while (line < endLine && !state.isEmpty(line) && /^>\s*$/.test(lineText(state, line))) line++;
  if (line === startLine) return false;
  let blockEnd = line;
  while (blockEnd < endLine && !state.isEmpty(blockEnd)) blockEnd++;
  if (line < blockEnd) {
    if (lineText(state, line).startsWith(">")) return false; // a real quote line: the usual rule applies
    state.push("blockquote_open", "blockquote", 1).map = [startLine, blockEnd];
    tokenizeBody(state, line, blockEnd);
    state.push("blockquote_close", "blockquote", -1);
    state.line = blockEnd;
    return true;
  }
  state.push("paragraph_open", "p", 1).map = [startLine, line];
  const inline = state.push("inline", "", 0);
  inline.content = state.getLines(startLine, line, state.blkIndent, false).trim();
  inline.map = [startLine, line];
  inline.children = [];
  state.push("paragraph_close", "p", -1);
  state.line = line;
  return true;
}

/**
 * Zulip starts a list on any "N. " line, even right after a paragraph line ("Steps:\n3. Go"),
 * and nests "  3. C" under "2. B". CommonMark lets only "1." interrupt a paragraph. Registered as
 * a paragraph terminator only: it ends the paragraph, and the list rule then builds the list.
 */
export function orderedListInterrupts(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (!silent || state.parentType !== "paragraph") return false;
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  return /^\d\.[ \t]/.test(lineText(state, startLine));
}
