/** Narrow parsing (zulip-facts section d), anchors and search highlighting: pure functions. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../../src/errors.js";
import { NEWEST_ANCHOR, parseAnchor, parseAnchorDate } from "../../src/lib/anchor.js";
import { parseNarrow } from "../../src/lib/narrow.js";
import { escapeHtml, highlightHtml, highlightKeys, parseSearchText } from "../../src/lib/search-highlight.js";

function narrowError(raw: unknown): ApiError {
  try {
    parseNarrow(raw);
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return e;
  }
  assert.fail(`accepted ${JSON.stringify(raw)}`);
}

describe("parseNarrow", () => {
  it("reads both term forms, with negation defaulting to false", () => {
    assert.deepEqual(parseNarrow([{ operator: "channel", operand: "Verona", negated: true }, ["topic", "lunch"]]), [
      { operator: "channel", operand: "Verona", negated: true },
      { operator: "topic", operand: "lunch", negated: false },
    ]);
    assert.deepEqual(parseNarrow([]), []);
  });

  it("maps legacy operator names and is:private onto the current ones", () => {
    const legacy = [["stream", "Verona"], ["streams", "public"], ["is", "private"]].map((term) => parseNarrow([term])[0]);
    assert.deepEqual(legacy.map((t) => `${t.operator}:${t.operand}`), ["channel:Verona", "channels:public", "is:dm"]);
    for (const name of ["pm-with", "pm_with"]) assert.equal(parseNarrow([[name, "a@b.c"]])[0].operator, "dm");
    for (const name of ["group-pm-with", "group_pm_with"]) assert.equal(parseNarrow([[name, "a@b.c"]])[0].operator, "group-pm-with");
  });

  it("types operands: ids where Zulip takes them, id lists for dm, strings elsewhere", () => {
    for (const operator of ["channel", "id", "sender", "group-pm-with", "dm-including", "mentions", "with"]) {
      assert.doesNotThrow(() => parseNarrow([{ operator, operand: 7 }]), operator);
      assert.equal(narrowError([{ operator, operand: [7] }]).message, "Invalid narrow operator: operand is not a string or integer");
    }
    assert.deepEqual(parseNarrow([{ operator: "dm", operand: [1, 2] }])[0].operand, [1, 2]);
    assert.equal(narrowError([{ operator: "dm", operand: ["x"] }]).message, "Invalid narrow operator: operand is not a string or an integer list");
    for (const operator of ["topic", "is", "has", "in", "channels", "near", "search"]) {
      assert.equal(narrowError([{ operator, operand: 5 }]).message, "Invalid narrow operator: operand is not a string", operator);
    }
    assert.equal(narrowError([{ operator: "search", operand: "  " }]).message, "Invalid narrow operator: operand cannot be blank.");
  });

  it("refuses malformed terms with BAD_NARROW", () => {
    const cases: Array<[unknown, string]> = [
      [{ operator: "channel" }, "operand is missing"],
      [{ operand: "x" }, "operator is missing"],
      [["channel"], "element is not a string pair"],
      [["channel", 5], "element is not a string pair"],
      ["channel:x", "dict or list required"],
      [{ operator: "channel", operand: "x", negated: "yes" }, "negated is not a boolean"],
      [{ operator: "bogus", operand: "x" }, "unknown operator bogus"],
    ];
    for (const [term, desc] of cases) {
      const e = narrowError([term]);
      assert.equal(e.code, "BAD_NARROW");
      assert.equal(e.status, 400);
      assert.equal(e.message, `Invalid narrow operator: ${desc}`);
      assert.deepEqual(e.data, { desc });
    }
    assert.equal(narrowError({ operator: "x" }).message, "Invalid narrow operator: narrow is not a list");
  });

  it("checks the fixed operand vocabularies", () => {
    for (const operand of ["dm", "starred", "unread", "mentioned", "alerted", "followed", "muted", "resolved"]) {
      assert.doesNotThrow(() => parseNarrow([["is", operand]]));
    }
    assert.equal(narrowError([["is", "shiny"]]).message, "Invalid narrow operator: unknown 'is' operand shiny");
    for (const operand of ["attachment", "image", "link", "reaction"]) assert.doesNotThrow(() => parseNarrow([["has", operand]]));
    assert.equal(narrowError([["has", "video"]]).message, "Invalid narrow operator: unknown 'has' operand video");
    assert.equal(narrowError([["in", "away"]]).message, "Invalid narrow operator: unknown 'in' operand away");
    assert.equal(narrowError([["channels", "private"]]).message, "Invalid narrow operator: unknown channels operand private");
    assert.equal(narrowError([["id", "12a"]]).message, "Invalid narrow operator: Invalid message ID");
    assert.equal(parseNarrow([["id", "12"]])[0].operand, 12);
  });

  it("reads the empty topic's display name as the empty topic", () => {
    assert.equal(parseNarrow([["topic", "general chat"]])[0].operand, "");
    assert.equal(parseNarrow([["topic", ""]])[0].operand, "");
    assert.equal(parseNarrow([["topic", "General Chat!"]])[0].operand, "General Chat!");
  });

  it("refuses channel terms next to direct-message terms, unless one is negated", () => {
    const both = "Invalid narrow operator: No message can be both a channel message and direct message";
    assert.equal(narrowError([["channel", "Verona"], ["is", "dm"]]).message, both);
    assert.equal(narrowError([["topic", "x"], ["dm", "a@b.c"]]).message, both);
    assert.equal(narrowError([{ operator: "is", operand: "dm", negated: true }, ["dm-including", "a@b.c"]]).message, both);
    assert.doesNotThrow(() => parseNarrow([{ operator: "channel", operand: "Verona", negated: true }, ["is", "dm"]]));
    assert.doesNotThrow(() => parseNarrow([["channel", "Verona"], { operator: "is", operand: "dm", negated: true }]));
  });

  it("refuses a second with term", () => {
    const e = narrowError([["with", "1"], ["with", "2"]]);
    assert.equal(e.message, "Invalid narrow operator combination: Duplicate 'with' operators.");
    assert.equal(e.code, "BAD_NARROW");
  });
});

describe("anchors", () => {
  it("parses the special values and clamps ids", () => {
    assert.deepEqual(parseAnchor("newest", undefined), { type: "id", id: NEWEST_ANCHOR });
    assert.deepEqual(parseAnchor("oldest", undefined), { type: "id", id: 0 });
    assert.deepEqual(parseAnchor("first_unread", undefined), { type: "first_unread" });
    assert.deepEqual(parseAnchor("42", undefined), { type: "id", id: 42 });
    assert.deepEqual(parseAnchor("-5", undefined), { type: "id", id: 0 });
    assert.deepEqual(parseAnchor("99999999999999999999", undefined), { type: "id", id: NEWEST_ANCHOR });
    assert.throws(() => parseAnchor("latest", undefined), /Invalid anchor/);
    assert.throws(() => parseAnchor("date", undefined), /Missing 'anchor_date' argument/);
  });

  it("reads ISO dates and datetimes as UTC unless a zone is given", () => {
    const midnight = Date.UTC(2024, 1, 29) / 1000;
    assert.equal(parseAnchorDate("2024-02-29"), midnight);
    assert.equal(parseAnchorDate("2024-02-29T10:30"), midnight + 37800);
    assert.equal(parseAnchorDate("2024-02-29T10:30:00Z"), midnight + 37800);
    assert.equal(parseAnchorDate("2024-02-29 10:30:00+02:00"), midnight + 37800 - 7200);
    assert.equal(parseAnchorDate("2024-02-29T10:30:00.250"), midnight + 37801);
    for (const bad of ["2023-02-29", "2024-13-01", "2024-01-01T25:00", "yesterday", ""]) {
      assert.throws(() => parseAnchorDate(bad), (e: ApiError) => e.code === "REQUEST_VARIABLE_INVALID", bad);
    }
  });
});

describe("search text and highlights", () => {
  it("splits words and quoted phrases, dropping bare punctuation", () => {
    assert.deepEqual(parseSearchText('lunch "fresh pasta" -- today'), { words: ["lunch", "today"], phrases: ["fresh pasta"] });
  });

  it("highlights stem matches in text, never inside tags or entities", () => {
    const keys = highlightKeys(parseSearchText("run amp"));
    const html = '<p class="running">Running &amp; runs <a href="run">ran</a></p>';
    assert.equal(
      highlightHtml(html, keys),
      '<p class="running"><span class="highlight">Running</span> &amp; <span class="highlight">runs</span> <a href="run">ran</a></p>',
    );
    assert.equal(highlightHtml(escapeHtml("<b>run</b>"), keys), '&lt;b&gt;<span class="highlight">run</span>&lt;/b&gt;');
  });
});
