/**
 * The compose typeahead's pure part (web/src/compose/typeahead.ts): which token the caret ends,
 * what it completes to in Zulip's syntax, and the text after a pick.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applySuggestion, suggestionsFor, tokenAt, type CompletionSources } from "../../../web/src/compose/typeahead.js";

const sources: CompletionSources = {
  users: [
    { user_id: 1, full_name: "Alice Admin", email: "alice@acme.test", is_active: true },
    { user_id: 2, full_name: "Bob Member", email: "bob@acme.test", is_active: true },
    { user_id: 3, full_name: "Bob Member", email: "bob2@acme.test", is_active: true },
    { user_id: 4, full_name: "Gone Person", email: "gone@acme.test", is_active: false },
  ],
  groups: [
    { name: "backend", description: "Server people", is_system_group: false },
    { name: "role:members", description: "", is_system_group: true },
  ],
  channels: ["engineering", "general", "ops"],
  topics: ["deploys", "lunch"],
  emoji: [
    { name: "smile", glyph: { text: "😄" } },
    { name: "thumbs_up", aliases: ["+1", "like"], glyph: { text: "👍" } },
  ],
};

const complete = (text: string) => {
  const token = tokenAt(text, text.length);
  return token ? suggestionsFor(token, sources).map((s) => s.insert) : null;
};

describe("compose typeahead", () => {
  it("finds the token the caret ends, and none in ordinary text", () => {
    assert.deepEqual(tokenAt("hi @bo", 6), { kind: "mention", query: "bo", start: 3, silent: false });
    assert.equal(tokenAt("hi @_**bo", 9)?.silent, true);
    assert.equal(tokenAt("mail a@b.c", 10), null);
    assert.equal(tokenAt("at 10:30", 8), null);
    assert.equal(tokenAt("a :s", 4), null); // one character is not enough for emoji
    assert.deepEqual(tokenAt("see #**engineering>dep", 22), { kind: "topic", query: "dep", channel: "engineering", start: 4, silent: false });
    assert.equal(tokenAt("(#gen", 5)?.start, 1);
    assert.equal(tokenAt("@**Bob Member** ", 16), null);
  });

  it("completes people (with |id for shared names), groups, wildcards and silent mentions", () => {
    assert.deepEqual(complete("@al"), ["@**Alice Admin** ", "@**all** "]);
    assert.deepEqual(complete("@bob"), ["@**Bob Member|2** ", "@**Bob Member|3** "]);
    assert.deepEqual(complete("@back"), ["@*backend* "]);
    assert.deepEqual(complete("@_ali"), ["@_**Alice Admin** "]);
    assert.deepEqual(complete("@gone"), []);
    assert.deepEqual(complete("@memb"), ["@**Bob Member|2** ", "@**Bob Member|3** "]); // a later word, no system groups
  });

  it("completes channels, topics and emoji (by alias too)", () => {
    assert.deepEqual(complete("#en"), ["#**engineering** ", "#**general** "]);
    assert.deepEqual(complete("#**engineering>lu"), ["#**engineering>lunch** "]);
    const channel = tokenAt("#eng", 4);
    assert.ok(channel);
    assert.deepEqual(suggestionsFor(channel, sources)[0].alternative, { key: ">", insert: "#**engineering>" });
    assert.deepEqual(complete(":smi"), [":smile: "]);
    assert.deepEqual(complete(":lik"), [":thumbs_up: "]);
  });

  it("replaces the token and puts the caret after it", () => {
    const token = tokenAt("hi @bo and more", 6);
    assert.ok(token);
    assert.deepEqual(applySuggestion("hi @bo and more", 6, token, "@**Bob Member** "), { text: "hi @**Bob Member** and more", caret: 19 });
    const end = tokenAt("hi :smi", 7);
    assert.ok(end);
    assert.deepEqual(applySuggestion("hi :smi", 7, end, ":smile: "), { text: "hi :smile: ", caret: 11 });
  });
});
