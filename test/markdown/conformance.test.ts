/**
 * Runs Zulip's own Markdown test cases (zerver/tests/fixtures/markdown_test_cases.json, in
 * ../shared/reference) against our renderer.
 *
 * - A regular case passes when our HTML equals its expected_output, or its
 *   marked_expected_output when it has one (that is what Zulip's web client renders; either is
 *   Zulip behaviour), after normalizeHtml() (whitespace between tags, attribute order, entities).
 * - backend_only_rendering cases are ones Zulip's web client cannot preview (image and video
 *   previews). We are a backend renderer, so they run like the others.
 * - translate_emoticons cases render with the sender's translate_emoticons setting on.
 * - Cases flagged "ignore" are skipped, as in Zulip (the file currently has none).
 * - Cases Zulip has changed since the file was taken are judged by CHANGED_SINCE_FIXTURES.
 * - linkify_tests are [input, expected template, url]: the template's %s is
 *   `<a href="…">url</a>`, the href being the url with http:// or mailto: added as Zulip's test does.
 *
 * The score is printed as "markdown conformance: N/M"; failures are listed with reasons in
 * docs/markdown-conformance.md. The suite requires at least 90%.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { renderMarkdown } from "../../src/markdown/index.js";
import { fixtureContext } from "./fixtures.js";
import { normalizeHtml } from "./html-normalize.js";

interface RegularCase {
  name: string;
  input: string;
  expected_output: string;
  marked_expected_output?: string;
  backend_only_rendering?: boolean;
  translate_emoticons?: boolean;
  ignore?: boolean;
}

/**
 * Cases whose expected HTML Zulip changed after the fixture file was taken (its newest change is
 * feature level 442), with the level and the HTML Zulip renders now. Written from Zulip's
 * message-formatting changelog; the fixture's own expectation no longer counts for these.
 */
const CHANGED_SINCE_FIXTURES: Record<string, { level: number; html: string }> = {
  // FL 451: an invalid global time is the typed `<time:…>`, as escaped plain text.
  timestamp_invalid_input: { level: 451, html: "<p>&lt;time:&lt;alert(1)&gt;&gt;</p>" },
  timestamp_incorrect: { level: 451, html: "<p>&lt;time:**hello world**&gt;</p>" },
  timestamp_invalid_timezone: { level: 451, html: "<p>&lt;time:1969-12-31T00:00:00+32:00&gt;</p>" },
  timestamp_overflow: { level: 451, html: "<p>&lt;time:0001-01-01T01:00:00+02:00&gt;</p>" },
  timestamp_unix_overflow: { level: 451, html: "<p>Let's meet at &lt;time:1234567890123&gt;.</p>" },
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const casesPath = path.resolve(repoRoot, "../shared/reference/markdown_test_cases.json");

function linkifyExpected(template: string, url: string): string {
  if (!template.includes("%s")) return template;
  const href = url.startsWith("http") ? url : url.includes("@") ? "mailto:" + url : "http://" + url;
  return template.replace("%s", `<a href="${href}">${url}</a>`);
}

test("Zulip Markdown conformance cases", (t) => {
  if (!existsSync(casesPath)) {
    t.skip(`markdown_test_cases.json is absent (looked at ${casesPath})`);
    return;
  }
  const data = JSON.parse(readFileSync(casesPath, "utf8")) as {
    regular_tests: RegularCase[];
    linkify_tests: [string, string, string][];
  };
  const plain = fixtureContext();
  const emoticons = fixtureContext({ translateEmoticons: true });
  const failures: string[] = [];
  let total = 0;
  let passed = 0;

  const check = (name: string, input: string, ctxEmoticons: boolean, accepted: string[]) => {
    total++;
    const ours = normalizeHtml(renderMarkdown(input, ctxEmoticons ? emoticons : plain).html);
    if (accepted.some((html) => normalizeHtml(html) === ours)) passed++;
    else failures.push(name);
  };

  for (const c of data.regular_tests) {
    if (c.ignore) continue;
    const changed = CHANGED_SINCE_FIXTURES[c.name];
    const accepted = changed
      ? [changed.html]
      : [c.expected_output, ...(c.marked_expected_output === undefined ? [] : [c.marked_expected_output])];
    check(c.name, c.input, c.translate_emoticons === true, accepted);
  }
  for (const [input, template, url] of data.linkify_tests) {
    check(`linkify: ${JSON.stringify(input)}`, input, false, [linkifyExpected(template, url)]);
  }

  console.log(`markdown conformance: ${passed}/${total}`);
  for (const name of failures) t.diagnostic(`failing: ${name}`);
  assert.ok(passed / total >= 0.9, `only ${passed}/${total} cases match`);
});
