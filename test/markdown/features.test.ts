import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isValidUnicodeEmojiCode, unicodeEmojiByCode, unicodeEmojiByName } from "../../src/lib/emoji.js";
import { buildMarkdownContext, renderMarkdown, renderTopicLinks } from "../../src/markdown/index.js";
import { fixtureContext, LINKIFIERS } from "./fixtures.js";

const ctx = fixtureContext();
const render = (content: string, alertWords?: string[]) => renderMarkdown(content, ctx, { alertWords });

describe("/me messages", () => {
  test("a one-paragraph /me message is a me-message, and keeps /me in the HTML", () => {
    const r = render("/me waves");
    assert.equal(r.isMeMessage, true);
    assert.equal(r.html, "<p>/me waves</p>");
  });

  test("anything else is not", () => {
    assert.equal(render("/me waves\n\nand more").isMeMessage, false);
    assert.equal(render("/mention").isMeMessage, false);
    assert.equal(render("say /me waves").isMeMessage, false);
  });
});

describe("linkifiers", () => {
  test("named groups fill the URL template", () => {
    const r = render("fixed in #1234, not #1");
    assert.equal(r.html, '<p>fixed in <a href="https://trac.example.com/ticket/1234">#1234</a>, not #1</p>');
  });

  test("a match must stand alone, and code and links are left alone", () => {
    assert.equal(render("a#1234").html, "<p>a#1234</p>");
    assert.equal(render("#1234abc").html, "<p>#1234abc</p>");
    assert.equal(render("`#1234`").html, "<p><code>#1234</code></p>");
    assert.equal(render("[see #1234](https://example.com)").html, '<p><a href="https://example.com">see #1234</a></p>');
  });

  test("Zulip's RE2 syntax: (?P<name>…) groups, inline flags, Unicode classes", () => {
    const flags = buildMarkdownContext({ realmUrl: "https://x", linkifiers: [{ id: 1, pattern: "(?i)T-(?P<id>\\pN+)", url_template: "https://t/{id}" }] });
    assert.equal(renderMarkdown("see t-٣٤", flags).html, '<p>see <a href="https://t/%D9%A3%D9%A4">t-٣٤</a></p>');
    const custom = buildMarkdownContext({
      realmUrl: "https://chat.example.com",
      linkifiers: [{ id: 1, pattern: "(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)", url_template: "https://github.com/{org}/{repo}/pull/{id}" }],
    });
    assert.equal(
      renderMarkdown("see zulip/zulip#42", custom).html,
      '<p>see <a href="https://github.com/zulip/zulip/pull/42">zulip/zulip#42</a></p>',
    );
  });

  test("a catastrophic-backtracking pattern runs in linear time (issue 16, F4)", () => {
    // V8 took 8-11 s on 31 a's; each extra "a" doubled it. RE2 has no backtracking: at 100,000
    // characters this would never finish on a backtracking engine.
    const evil = [{ id: 1, pattern: "(?P<id>(a+)+)!", url_template: "https://x/{id}" }];
    const ctx = buildMarkdownContext({ realmUrl: "https://x", linkifiers: evil });
    assert.equal(renderMarkdown("a".repeat(100_000) + "b", ctx).html, `<p>${"a".repeat(100_000)}b</p>`);
    assert.deepEqual(renderTopicLinks("a".repeat(60) + "b", evil), []);
    assert.deepEqual(renderTopicLinks("aaa!", evil), [{ text: "aaa!", url: "https://x/aaa" }]);
  });

  test("an invalid pattern is skipped instead of breaking rendering", () => {
    const broken = buildMarkdownContext({ realmUrl: "https://x", linkifiers: [{ id: 1, pattern: "(unclosed", url_template: "https://x/{id}" }] });
    assert.equal(renderMarkdown("(unclosed", broken).html, "<p>(unclosed</p>");
  });

  test("a pattern that matches the empty string ends at astral characters and links nothing empty (issue 22)", () => {
    // An empty match at a surrogate pair used to restart inside the pair, which a `u` regex moves
    // back to the pair's start: the same match forever, until the heap ran out.
    const empty = [
      { id: 1, pattern: "x*", url_template: "https://example.com/" },
      { id: 2, pattern: "(?P<id>[0-9]*)", url_template: "https://example.com/{id}" },
    ];
    const ctx = buildMarkdownContext({ realmUrl: "https://x", linkifiers: empty });
    for (const text of ["\u{F3696}\u{10FFFB}", "𓃱 x 😀", "😀", "a 😀x", "x"]) {
      assert.deepEqual(
        renderTopicLinks(text, empty).filter((l) => l.text === ""),
        [],
        JSON.stringify(text),
      );
      assert.doesNotMatch(renderMarkdown(text, ctx).html, /<a [^>]*><\/a>/);
    }
    assert.deepEqual(renderTopicLinks("😀 x 12", empty), [
      { text: "x", url: "https://example.com/" },
      { text: "12", url: "https://example.com/12" },
    ]);
  });

  test("topic links: linkifier matches and raw URLs, in order", () => {
    assert.deepEqual(renderTopicLinks("#1234 and #5678 at example.com/x, https://zulip.com", LINKIFIERS), [
      { text: "#1234", url: "https://trac.example.com/ticket/1234" },
      { text: "#5678", url: "https://trac.example.com/ticket/5678" },
      { text: "example.com/x", url: "https://example.com/x" },
      { text: "https://zulip.com", url: "https://zulip.com" },
    ]);
    assert.deepEqual(renderTopicLinks("nothing here", LINKIFIERS), []);
  });

  test("topic links: earlier linkifiers win overlaps", () => {
    const linkifiers = [
      { id: 1, pattern: "ABC-(?P<id>[0-9]+)", url_template: "https://a.example/{id}" },
      { id: 2, pattern: "(?P<key>[A-Z]+)-(?P<id>[0-9]+)", url_template: "https://b.example/{key}/{id}" },
    ];
    assert.deepEqual(renderTopicLinks("ABC-1 XY-2", linkifiers), [
      { text: "ABC-1", url: "https://a.example/1" },
      { text: "XY-2", url: "https://b.example/XY/2" },
    ]);
  });
});

describe("emoji", () => {
  test("the emoji table uses Zulip's names and codes", () => {
    assert.deepEqual(unicodeEmojiByName("thumbs_up"), { name: "thumbs_up", code: "1f44d" });
    assert.deepEqual(unicodeEmojiByName("+1"), { name: "+1", code: "1f44d" });
    assert.deepEqual(unicodeEmojiByCode("1f44d"), { name: "thumbs_up", code: "1f44d" });
    assert.equal(unicodeEmojiByName("octopus")?.code, "1f419");
    assert.equal(unicodeEmojiByName("smile")?.code, "1f604");
    assert.equal(unicodeEmojiByCode("0023-20e3")?.name, "hash");
    assert.equal(isValidUnicodeEmojiCode("1f937-200d-2640"), true);
    assert.equal(isValidUnicodeEmojiCode("1f3fb"), false); // skin tone modifier alone
    assert.equal(unicodeEmojiByName("fried_egg"), undefined);
  });

  test(":name: and pasted emoji render as Zulip's spans", () => {
    const span = '<span class="emoji emoji-1f419" role="img" aria-label="octopus" title="octopus">:octopus:</span>';
    assert.equal(render(":octopus:").html, `<p>${span}</p>`);
    assert.equal(render("🐙").html, `<p>${span}</p>`);
    assert.equal(render(":not_an_emoji:").html, "<p>:not_an_emoji:</p>");
  });

  test("realm emoji render as images and win over Unicode names; deactivated ones do not render", () => {
    assert.equal(
      render(":green_tick:").html,
      '<p><img src="/user_avatars/2/emoji/images/1.png" class="emoji" alt=":green_tick:" title="green tick"></p>',
    );
    assert.equal(render(":retired:").html, "<p>:retired:</p>");
  });

  test("emoticons translate only with the sender's setting", () => {
    assert.equal(render(":) ok").html, "<p>:) ok</p>");
    const on = fixtureContext({ translateEmoticons: true });
    assert.match(renderMarkdown(":) ok <3", on).html, /emoji-1f642.*emoji-2764/);
  });

  test("emoji in code stay text", () => {
    assert.equal(render("`:smile: 🐙`").html, "<p><code>:smile: 🐙</code></p>");
  });
});

describe("links, uploads and previews", () => {
  test("uploads are reported as attachments and previewed when they are pictures", () => {
    const r = render("[report.pdf](/user_uploads/2/ab/cdef/report.pdf) and [cat.png](/user_uploads/2/cd/xyz/cat.png)");
    assert.deepEqual(r.attachmentPathIds, ["2/ab/cdef/report.pdf", "2/cd/xyz/cat.png"]);
    assert.equal(r.hasAttachment, true);
    assert.equal(r.hasImage, true);
    assert.equal(r.hasLink, true);
    assert.match(r.html, /<div class="message_inline_image"><a href="\/user_uploads\/2\/cd\/xyz\/cat.png" title="cat.png"><img src="\/user_uploads\/2\/cd\/xyz\/cat.png"><\/a><\/div>$/);
  });

  test("absolute links into the realm become relative", () => {
    const r = render("http://zulip.testserver/user_uploads/2/ab/x.txt and [narrow](http://zulip.testserver/#narrow/channel/1-Denmark)");
    assert.equal(
      r.html,
      '<p><a href="user_uploads/2/ab/x.txt">http://zulip.testserver/user_uploads/2/ab/x.txt</a> and <a href="#narrow/channel/1-Denmark">narrow</a></p>',
    );
    assert.deepEqual(r.attachmentPathIds, ["2/ab/x.txt"]);
  });

  test("plain text has no links, images or attachments", () => {
    const r = render("just words");
    assert.deepEqual([r.hasLink, r.hasImage, r.hasAttachment], [false, false, false]);
  });

  test("quoted links are not previewed", () => {
    assert.doesNotMatch(render("> https://example.com/a.png").html, /message_inline_image/);
  });

  test("looking for links takes linear time: a 200 000-character word renders at once (found by fuzzing)", () => {
    // The candidate-word search used to retry from every position of a dotless word: about a
    // minute for this one.
    const started = performance.now();
    const r = render("a".repeat(200_000) + " see example.com");
    assert.ok(performance.now() - started < 2_000, `took ${Math.round(performance.now() - started)} ms`);
    assert.match(r.html, /<a href="http:\/\/example.com">example.com<\/a><\/p>$/);
  });
});

describe("blocks", () => {
  test("code blocks use Zulip's codehilite structure and Pygments' language names", () => {
    assert.equal(
      render("```js\nlet x = 1 < 2;\n```").html,
      '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>let x = 1 &lt; 2;\n</code></pre></div>',
    );
  });

  test("spoilers and display math", () => {
    assert.match(render("```spoiler Plot\nhe dies\n```").html, /^<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot<\/p>/);
    assert.match(render("```math\nx^2\n```").html, /^<p><span class="katex-display">/);
    assert.equal(render("$$\\nosuchcommand$$").html, '<p><span class="tex-error">$$\\nosuchcommand$$</span></p>');
  });

  test("global times", () => {
    assert.equal(render("<time:2024-03-01T10:00:00+01:00>").html, '<p><time datetime="2024-03-01T09:00:00Z">2024-03-01T10:00:00+01:00</time></p>');
    assert.equal(render("<time:1496701800>").html, '<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>');
    // FL 451: an invalid time is the typed text, escaped and not parsed further.
    assert.equal(render("<time:soon>").html, "<p>&lt;time:soon&gt;</p>");
    assert.equal(render("at <time:**never** <b>>!").html, "<p>at &lt;time:**never** &lt;b&gt;&gt;!</p>");
  });

  test("QuickTime videos (.mov) preview inline like MP4 and WebM (FL 495)", () => {
    assert.equal(
      render("[clip](/user_uploads/2/ab/cdef/clip.MOV)").html,
      '<p><a href="/user_uploads/2/ab/cdef/clip.MOV">clip</a></p>\n' +
        '<div class="message_inline_image message_inline_video"><a href="/user_uploads/2/ab/cdef/clip.MOV" title="clip"><video preload="metadata" src="/user_uploads/2/ab/cdef/clip.MOV"></video></a></div>',
    );
  });
});

describe("alert words", () => {
  test("found case-insensitively as whole words", () => {
    assert.deepEqual(render("The Deploy failed, deployment later", ["deploy", "later", "fail"]).alertWordsFound, ["deploy", "later"]);
  });
});

describe("image proxy (Camo, issue 16 F17)", () => {
  const camo = { url: "https://camo.example.com/", key: "secret-camo-key" };
  // Computed with Python's hmac, as Zulip's zerver/lib/camo.py does.
  const proxiedX = "https://camo.example.com/08e8e2d80c3496e1fb40d871e9678a035e8c73d4/68747470733a2f2f612e746573742f782e706e67";

  test("previews of images and videos on other hosts load through the proxy; the link stays", () => {
    const ctx = buildMarkdownContext({ realmUrl: "https://chat.example.com", camo });
    const html = renderMarkdown("https://a.test/x.png", ctx).html;
    assert.equal(html, `<div class="message_inline_image"><a href="https://a.test/x.png"><img src="${proxiedX}"></a></div>`);
    assert.match(renderMarkdown("https://a.test/clip.mp4", ctx).html, /<video preload="metadata" src="https:\/\/camo\.example\.com\/[0-9a-f]{40}\/[0-9a-f]+"><\/video>/);
  });

  test("without a proxy, and for the realm's own files, the URL is used as it is", () => {
    const plain = buildMarkdownContext({ realmUrl: "https://chat.example.com" });
    assert.match(renderMarkdown("https://a.test/x.png", plain).html, /<img src="https:\/\/a\.test\/x\.png">/);
    const ctx = buildMarkdownContext({ realmUrl: "https://chat.example.com", camo });
    assert.match(renderMarkdown("https://chat.example.com/static/x.png", ctx).html, /<img src="https:\/\/chat\.example\.com\/static\/x\.png">/);
  });
});
