/**
 * Markdown render time: a typical chat message (one paragraph with a mention and a link) and a
 * 10,000-character message mixing the common syntax. Prints mean and p99 per render.
 * Run with `npx tsx bench/markdown.ts`.
 */
import { performance } from "node:perf_hooks";
import { buildMarkdownContext, collectReferences, renderMarkdown } from "../src/markdown/index.js";

const ctx = buildMarkdownContext({
  realmUrl: "https://chat.example.com",
  users: Array.from({ length: 50 }, (_, i) => ({ id: i + 1, full_name: `User ${i + 1}`, email: `u${i + 1}@example.com` })),
  groups: [{ id: 100, name: "backend" }],
  channels: [{ id: 1, name: "general" }, { id: 2, name: "engineering" }],
  realmEmoji: [],
  linkifiers: [{ id: 1, pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://tracker.example.com/issues/{id}" }],
});

const typical = "Hey @**User 7**, the deploy notes are at https://docs.example.com/deploys/2024-05 — can you take a look before standup?";

const block = [
  "## Release notes for **v2.3** :tada:",
  "",
  "Thanks @**User 3** and @*backend* for the fixes; see #**engineering>release 2.3** and issue #4512.",
  "Details: https://example.com/changelog?version=2.3&lang=en (long read) and `make release`.",
  "",
  "* first item with *emphasis* and ~~strike~~",
  "* second item with a [named link](https://example.com/a/b/c)",
  "  * nested item 👍",
  "",
  "```python",
  "def release(version):",
  "    return f\"v{version}\"",
  "```",
  "",
  "> quoted text from @**User 9** with $$x^2 + y^2$$",
  "",
].join("\n");
let large = "";
while (large.length < 10_000) large += block + "\n";
large = large.slice(0, 10_000);

function measure(label: string, content: string, iterations: number): void {
  for (let i = 0; i < 200; i++) renderMarkdown(content, ctx); // warm up JIT and caches
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    collectReferences(content);
    renderMarkdown(content, ctx);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const p99 = times[Math.floor(times.length * 0.99)];
  console.log(`${label}: mean ${(mean * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs over ${iterations} renders (${content.length} chars)`);
}

measure("typical message", typical, 5000);
measure("10,000-character message", large, 2000);
