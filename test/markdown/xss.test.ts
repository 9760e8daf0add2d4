/**
 * Hostile input must never produce active content: no <script> or other tag we do not emit
 * ourselves, no event-handler attribute, and no link or source with a script-capable scheme.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildMarkdownContext, renderMarkdown } from "../../src/markdown/index.js";

const ctx = buildMarkdownContext({
  realmUrl: "https://chat.example.com",
  users: [
    { id: 1, full_name: '<img src=x onerror=alert(1)>', email: "a@x" },
    { id: 2, full_name: 'Quote" onmouseover="alert(1)', email: "b@x" },
  ],
  groups: [{ id: 3, name: "<script>alert(1)</script>" }],
  channels: [{ id: 4, name: '"><svg onload=alert(1)>' }],
  realmEmoji: [{ id: "5", name: "evil", source_url: 'javascript:alert(1)" onerror="alert(1)', deactivated: false }],
  linkifiers: [
    { id: 6, pattern: "XSS-(?P<id>[0-9]+)", url_template: "javascript:alert({id})" },
    { id: 7, pattern: "T-(?P<id>[^\\s]+)", url_template: "https://tracker.example.com/{id}" },
  ],
});

const PAYLOADS = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
  "<img src=x onerror=alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  "<svg/onload=alert(1)>",
  "<iframe src=javascript:alert(1)>",
  "[x](javascript:alert(1))",
  "[x](JAVASCRIPT:alert(1))",
  "[x]( javascript:alert(1) )",
  "[x](<javascript:alert(1)>)",
  "[x](&#106;avascript:alert(1))",
  "[x](&#x6A;avascript&colon;alert(1))",
  "[x](java&#x09;script:alert(1))",
  "[x](jav\tascript:alert(1))",
  "[x](vbscript:msgbox(1))",
  "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[x](DaTa:text/html,<script>alert(1)</script>)",
  "![x](javascript:alert(1))",
  "![x](data:image/svg+xml,<svg onload=alert(1)>)",
  "[x][ref]\n\n[ref]: javascript:alert(1)",
  "<javascript:alert(1)>",
  "javascript:alert(1)",
  'https://example.com/"onmouseover="alert(1)',
  "https://example.com/<script>alert(1)</script>",
  '[x](https://example.com "title\\" onmouseover=\\"alert(1)")',
  '[x](https://example.com "a" onmouseover="alert(1)")',
  '[x](https://example.com/a"onclick="alert(1))',
  "[<img src=x onerror=alert(1)>](https://example.com)",
  "**<b onmouseover=alert(1)>bold</b>**",
  "`<script>alert(1)</script>`",
  "```\n</code></pre><script>alert(1)</script>\n```",
  "```<script>\nx\n```",
  '```spoiler <img src=x onerror="alert(1)">\nbody\n```',
  "$$\\href{javascript:alert(1)}{x}$$",
  "```math\n\\url{javascript:alert(1)}\n```",
  "$$\\htmlData{onload=alert(1)}{x}$$",
  "<time:<script>alert(1)</script>>",
  "<time:\"><img src=x onerror=alert(1)>>",
  "@**<img src=x onerror=alert(1)>**",
  '@**Quote" onmouseover="alert(1)**',
  "@*<script>alert(1)</script>*",
  '#**"><svg onload=alert(1)>**',
  '#**"><svg onload=alert(1)>>topic"><script>**',
  ":evil:",
  "XSS-1",
  'T-"><script>alert(1)</script>',
  "https://example.com/x.png?\"><script>alert(1)</script>",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "<<script>script>alert(1)<</script>/script>",
];

const ALLOWED_TAGS = new Set([
  "p", "br", "a", "span", "code", "pre", "div", "strong", "em", "del", "blockquote", "ul", "ol", "li",
  "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "thead", "tbody", "tr", "th", "td", "img", "time",
  "audio", "video",
  // KaTeX output
  "math", "semantics", "mrow", "mi", "mo", "mn", "ms", "mtext", "msup", "msub", "msubsup", "mfrac", "mspace",
  "annotation", "svg", "path", "line", "mpadded", "mstyle", "merror", "munder", "mover", "munderover", "msqrt", "mroot", "mtable", "mtr", "mtd",
]);
const UNSAFE_SCHEME = /^(?:javascript|vbscript|data):/i;

function decode(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function assertSafe(input: string, html: string): void {
  assert.doesNotMatch(html, /<script/i, `<script in output for ${JSON.stringify(input)}`);
  for (const tag of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const name = tag[1].toLowerCase();
    assert.ok(ALLOWED_TAGS.has(name), `unexpected <${name}> for ${JSON.stringify(input)}: ${html}`);
    for (const attr of tag[2].matchAll(/\s+([^\s=>]+)(?:="([^"]*)")?/g)) {
      const attrName = attr[1].toLowerCase();
      assert.ok(!attrName.startsWith("on"), `event handler ${attrName} for ${JSON.stringify(input)}: ${html}`);
      // eslint-disable-next-line no-control-regex
      const value = decode(attr[2] ?? "").replace(/[\u0000-\u0020]/g, "");
      assert.doesNotMatch(value, UNSAFE_SCHEME, `unsafe ${attrName} for ${JSON.stringify(input)}: ${html}`);
    }
  }
  // Every "<" that is not one of our tags was escaped: no raw "<" survives outside tags.
  const stripped = html.replace(/<\/?[a-zA-Z][a-zA-Z0-9]*(?:\s+[^\s=>]+(?:="[^"]*")?)*\s*\/?>/g, "");
  assert.doesNotMatch(stripped, /</, `unescaped < for ${JSON.stringify(input)}: ${html}`);
}

test("XSS corpus renders inert", () => {
  assert.ok(PAYLOADS.length >= 40);
  for (const payload of PAYLOADS) {
    for (const input of [payload, `text ${payload} text`, `> ${payload}`, `* ${payload}`]) {
      assertSafe(input, renderMarkdown(input, ctx).html);
    }
  }
});

test("user-supplied names are escaped in mentions and links", () => {
  assert.equal(
    renderMarkdown("@**<img src=x onerror=alert(1)>**", ctx).html,
    '<p><span class="user-mention" data-user-id="1">@&lt;img src=x onerror=alert(1)&gt;</span></p>',
  );
  assert.match(renderMarkdown('@**Quote" onmouseover="alert(1)**', ctx).html, /@Quote&quot; onmouseover=&quot;alert\(1\)</);
});

test("unsafe link targets render as their source text", () => {
  assert.equal(renderMarkdown("[x](javascript:alert(1))", ctx).html, "<p>[x](javascript:alert(1))</p>");
  assert.equal(renderMarkdown("XSS-1", ctx).html, "<p>XSS-1</p>");
});
