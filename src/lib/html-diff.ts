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

/**
 * How much diffing one request may do, in token comparisons. Myers' diff costs about
 * (tokens of both sides) × (edit distance): a 10,000-word message edited back and forth four
 * times cost 20-26 s of the only thread (issue 16, F1). Each diff gets the edit distance the
 * remaining budget allows; past it, the change is shown whole (old deleted, new inserted), which
 * is still a true account of the edit. Shared by every diff of one history request.
 */
export const HISTORY_DIFF_BUDGET = 2_000_000;

export class DiffBudget {
  constructor(public remaining = HISTORY_DIFF_BUDGET) {}
}

export function highlightHtmlDifferences(before: string, after: string, budget = new DiffBudget()): string {
  const [old, now] = [tokenize(before), tokenize(after)];
  const size = old.length + now.length + 1;
  const maxEditLength = Math.floor(budget.remaining / size);
  let parts: ReturnType<typeof diffArrays<string>> | undefined;
  if (maxEditLength > 0) {
    let compared = 0;
    const comparator = (a: string, b: string) => (compared++, a === b);
    parts = diffArrays(old, now, { maxEditLength, comparator });
    // Bookkeeping grows with the edit distance too: charge at least one token pass per attempt.
    budget.remaining -= Math.max(compared, size);
  }
  if (!parts) return `<div>${emit(old, DELETED, false)}${emit(now, INSERTED, true)}</div>`;
  let out = "";
  for (const part of parts) {
    if (part.added) out += emit(part.value, INSERTED, true);
    else if (part.removed) out += emit(part.value, DELETED, false);
    else out += part.value.join("");
  }
  return `<div>${out}</div>`;
}
