/**
 * Canonical form of an HTML fragment, for comparing our output with Zulip's:
 *
 * - tags with attributes sorted by name, values and text entity-decoded;
 * - outside <pre>, runs of whitespace become one space, and whitespace next to a block-level
 *   tag or <br> is dropped (so "<p>a</p>\n<p>" and "<p>a </p><p>" compare equal);
 * - inside <pre>, text is kept exactly;
 * - an image proxy URL of Zulip's Camo (external_content/<digest>/<hex of URL>) is replaced by
 *   the URL it proxies: the digest is keyed by a server secret, and we link pictures directly.
 */

const BLOCK = new Set([
  "p", "div", "blockquote", "ul", "ol", "li", "pre", "table", "thead", "tbody", "tr", "th", "td",
  "h1", "h2", "h3", "h4", "h5", "h6", "hr", "br",
]);
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
const CAMO = /^https:\/\/external-content\.zulipcdn\.net\/external_content\/[0-9a-f]+\/([0-9a-f]+)$/;

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function attrValue(name: string, raw: string): string {
  const value = decode(raw);
  if ((name === "src" || name === "href") && CAMO.test(value)) {
    return Buffer.from(CAMO.exec(value)![1], "hex").toString("utf8");
  }
  return name === "class" ? value.trim().split(/\s+/).join(" ") : value;
}

type Item = { tag: string } | { text: string };

export function normalizeHtml(html: string): string {
  const items: Item[] = [];
  const re = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>|([^<]+|<)/g;
  let preDepth = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html)) !== null) {
    if (m[0].startsWith("<!--")) continue;
    if (m[4] !== undefined) {
      const text = decode(m[4]);
      items.push({ text: preDepth > 0 ? text : text.replace(/\s+/g, " ") });
      continue;
    }
    const closing = m[1] === "/";
    const name = m[2].toLowerCase();
    if (closing) {
      if (name === "pre") preDepth--;
      items.push({ tag: `</${name}>` });
      continue;
    }
    const attrs: string[] = [];
    const attrRe = /([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
    let a: RegExpExecArray | null;
    while ((a = attrRe.exec(m[3])) !== null) {
      const attrName = a[1].toLowerCase();
      attrs.push(`${attrName}=${JSON.stringify(attrValue(attrName, a[2] ?? a[3] ?? a[4] ?? ""))}`);
    }
    attrs.sort();
    items.push({ tag: `<${name}${attrs.length ? " " + attrs.join(" ") : ""}>` });
    if (name === "pre") preDepth++;
  }

  // Drop whitespace that touches block-level tags (outside <pre>).
  const isBlockTag = (item: Item | undefined) =>
    item !== undefined && "tag" in item && BLOCK.has(item.tag.replace(/^<\/?([a-z0-9-]+).*$/, "$1"));
  let out = "";
  let inPre = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if ("tag" in item) {
      if (item.tag === "<pre>" || item.tag.startsWith("<pre ")) inPre++;
      if (item.tag === "</pre>") inPre--;
      out += item.tag;
      continue;
    }
    let text = item.text;
    if (inPre === 0) {
      if (isBlockTag(items[i - 1]) || i === 0) text = text.replace(/^ /, "");
      if (isBlockTag(items[i + 1]) || i === items.length - 1) text = text.replace(/ $/, "");
    }
    out += text;
  }
  return out;
}
