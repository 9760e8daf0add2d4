/**
 * `content_html_diff` of the edit history (spec 4.15): a word-level diff of two rendered HTML
 * fragments. The result keeps the newer fragment's markup; inserted words are wrapped in
 * `<span class="highlight_text_inserted">` and deleted words, placed where they stood, in
 * `<span class="highlight_text_deleted">`. Tags are never split, so the output stays well formed.
 */
import { diffArrays } from "diff";

const INSERTED = "highlight_text_inserted";
const DELETED = "highlight_text_deleted";

/** Tags, whitespace runs and words (entities stay inside their word). */
function tokenize(html: string): string[] {
  return html.match(/<[^>]*>|\s+|[^<\s]+/g) ?? [];
}

const isTag = (token: string) => token.startsWith("<");

/** Emits one side of a change: runs of text wrapped in `cls` (when given), tags as `keepTags` says. */
function emit(tokens: readonly string[], cls: string | null, keepTags: boolean): string {
  let out = "";
  let run = "";
  const flush = () => {
    out += cls !== null && run.trim() !== "" ? `<span class="${cls}">${run}</span>` : run;
    run = "";
  };
  for (const token of tokens) {
    if (!isTag(token)) {
      run += token;
      continue;
    }
    flush();
    if (keepTags) out += token;
  }
  flush();
  return out;
}

export function highlightHtmlDifferences(before: string, after: string): string {
  let out = "";
  for (const part of diffArrays(tokenize(before), tokenize(after))) {
    if (part.added) out += emit(part.value, INSERTED, true);
    else if (part.removed) out += emit(part.value, DELETED, false);
    else out += part.value.join("");
  }
  return `<div>${out}</div>`;
}
