/**
 * The search box's text as a narrow (web/src/search-query.ts, issue 20): operators, negation,
 * quoted operands, the remaining words as one `search` term, and completions of the last word.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSearch, searchNarrow, searchSuggestions } from "../../../web/src/search-query";

describe("search query parsing", () => {
  it("turns operators into narrow terms and the other words into one search term", () => {
    assert.deepEqual(searchNarrow("sender:alice@example.com has:image launch plan"), [
      { operator: "sender", operand: "alice@example.com" },
      { operator: "has", operand: "image" },
      { operator: "search", operand: "launch plan" },
    ]);
    assert.deepEqual(searchNarrow('stream:engineering subject:"deploy notes"'), [
      { operator: "channel", operand: "engineering" },
      { operator: "topic", operand: "deploy notes" },
    ]);
  });

  it("reads negation, ids and DM lists", () => {
    assert.deepEqual(searchNarrow("-is:starred channel:12 dm:3,4 dm:a@x.test"), [
      { operator: "is", operand: "starred", negated: true },
      { operator: "channel", operand: 12 },
      { operator: "dm", operand: [3, 4] },
      { operator: "dm", operand: "a@x.test" },
    ]);
  });

  it("searches unknown operators and quoted phrases as text", () => {
    assert.deepEqual(parseSearch('http://x.test "exact phrase"'), [{ operator: "search", operand: 'http://x.test "exact phrase"', negated: false }]);
    assert.deepEqual(parseSearch(""), []);
  });

  it("completes operators, channel names, people and topics", () => {
    const sources = { channels: ["engineering", "design team"], people: ["bob@acme.test", "ada@acme.test"], topics: ["deploys"] };
    assert.deepEqual(searchSuggestions("launch sender:b", sources), ["launch sender:bob@acme.test"]);
    assert.deepEqual(searchSuggestions("channel:d", sources), ['channel:"design team"']);
    assert.deepEqual(searchSuggestions("topic:de", sources), ["topic:deploys"]);
    assert.ok(searchSuggestions("has:", sources).includes("has:image"));
  });
});
