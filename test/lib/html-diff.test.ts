/** The edit-history diff (lib/html-diff.ts) and its bound on work (issue 16, F1). */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DiffBudget, HISTORY_DIFF_BUDGET, highlightHtmlDifferences } from "../../src/lib/html-diff.js";

describe("content_html_diff", () => {
  test("marks inserted and deleted words inside the newer markup", () => {
    assert.equal(
      highlightHtmlDifferences("<p>hello old world</p>", "<p>hello new <b>world</b></p>"),
      '<div><p>hello <span class="highlight_text_deleted">old</span><span class="highlight_text_inserted">new</span> <b>world</b></p></div>',
    );
  });

  test("a history of huge rewrites stays within one request's budget and shows them whole", () => {
    // The F1 reproduction: 10,000 characters of one-letter words, edited back and forth four
    // times. Unbounded, each diff cost about 10^8 comparisons (20-26 s for the request).
    const words = (letters: string) => `<p>${Array.from({ length: 5_000 }, (_, i) => letters[i % letters.length]).join(" ")}</p>`;
    const [a, b] = [words("ab"), words("cd")];
    const budget = new DiffBudget();
    const diffs = [highlightHtmlDifferences(a, b, budget), highlightHtmlDifferences(b, a, budget), highlightHtmlDifferences(a, b, budget), highlightHtmlDifferences(b, a, budget)];
    const spent = HISTORY_DIFF_BUDGET - budget.remaining;
    // One pass over both sides per diff is the least any diff costs; a little over the budget is allowed for the last one.
    assert.ok(spent <= HISTORY_DIFF_BUDGET + 4 * 10_010, `spent ${spent} comparisons`);
    for (const diff of diffs) {
      assert.match(diff, /^<div><span class="highlight_text_deleted">/);
      assert.equal(diff.replace(/<span class="highlight_text_(deleted|inserted)">/g, "").length > 0, true);
    }
    assert.ok(diffs[0].includes('<span class="highlight_text_inserted">c d c d'));
  });

  test("small edits of a long message still get a word-level diff", () => {
    const long = `<p>${"word ".repeat(5_000)}end</p>`;
    const diff = highlightHtmlDifferences(long, long.replace("end", "finish"));
    assert.ok(diff.endsWith('<span class="highlight_text_deleted">end</span><span class="highlight_text_inserted">finish</span></p></div>'), diff.slice(-200));
  });
});
