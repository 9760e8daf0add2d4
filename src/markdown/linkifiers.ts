/**
 * Linkifiers (Zulip's "realm filters"): a regex with named groups plus an RFC 6570 URL template.
 * As in Zulip, a match only counts when it starts the text or follows whitespace or one of
 * ' " ( , : <, and is not followed by a letter or digit; so with `#(?P<id>[0-9]+)`, "#123" links
 * but "a#123" and "#123abc" do not. Linkifiers apply to message text outside code and links, and
 * to topic names (topic_links).
 */
import { parseTemplate } from "url-template";
import { urlAtStart } from "./autolink.js";
import type { CompiledLinkifier, Linkifier } from "./types.js";

const BEFORE = "zulipLinkifierBefore";
const MATCH = "zulipLinkifierMatch";
const AFTER = "zulipLinkifierAfter";

/** Python `re` syntax used in linkifier patterns, rewritten for JavaScript. */
export function pythonRegexToJs(pattern: string): { source: string; flags: string } {
  let flags = "";
  let source = pattern.replace(/^\(\?([aiLmsux]+)\)/, (_, f: string) => {
    if (f.includes("i")) flags += "i";
    if (f.includes("s")) flags += "s";
    if (f.includes("m")) flags += "m";
    return "";
  });
  source = source
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, "(?<$1>")
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, "\\k<$1>")
    .replace(/\\A/g, "^")
    .replace(/\\Z/g, "$");
  return { source, flags };
}

function compile(linkifier: Linkifier): CompiledLinkifier | null {
  const { source, flags } = pythonRegexToJs(linkifier.pattern);
  const wrapped = `(?<${BEFORE}>^|\\s|\\u0085|\\p{Z}|['"(,:<])(?<${MATCH}>${source})(?<${AFTER}>$|[^\\p{L}\\p{N}])`;
  try {
    const regex = new RegExp(wrapped, "gu" + flags);
    // Compiled on first use, when a pattern too large for V8 throws: do it here, inside the try.
    regex.test("");
    regex.lastIndex = 0;
    return { regex, template: parseTemplate(linkifier.url_template) };
  } catch {
    // An invalid pattern cannot have been saved through the API; skip it rather than fail every render.
    return null;
  }
}

const cache = new Map<string, CompiledLinkifier[]>();
const CACHE_LIMIT = 64;

/** Compiled linkifiers for a realm's list, cached by the list's content. */
export function compileLinkifiers(linkifiers: Linkifier[]): CompiledLinkifier[] {
  if (linkifiers.length === 0) return [];
  const key = JSON.stringify(linkifiers.map((l) => [l.pattern, l.url_template]));
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = linkifiers.map(compile).filter((c): c is CompiledLinkifier => c !== null);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, compiled);
  }
  return compiled;
}

export interface LinkifierMatch {
  start: number;
  end: number;
  text: string;
  url: string;
}

export function linkifierMatches(text: string, linkifier: CompiledLinkifier): LinkifierMatch[] {
  const out: LinkifierMatch[] = [];
  const re = linkifier.regex;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const groups = m.groups!;
    const start = m.index + groups[BEFORE].length;
    const matched = groups[MATCH];
    // A pattern that matches the empty string would make links with no text: nothing to click.
    if (matched !== "") {
      const vars: Record<string, string> = {};
      for (const [name, value] of Object.entries(groups)) if (value !== undefined) vars[name] = value;
      out.push({ start, end: start + matched.length, text: matched, url: linkifier.template.expand(vars) });
    }
    re.lastIndex = resumeAt(text, m.index, m.index + m[0].length - groups[AFTER].length);
  }
  return out;
}

/**
 * Where the next search starts: at the character after the match, which may be the "before" of
 * the next match, and always at least one whole code point past this match's start. A `u` regex
 * moves a lastIndex that falls inside a surrogate pair back to the pair's start, so stepping one
 * code unit past an empty match at an astral character found the same match forever, allocating
 * until the process died (issue 22: an empty pattern and a topic or text starting with 𓃱).
 */
function resumeAt(text: string, matchIndex: number, afterMatch: number): number {
  if (afterMatch > matchIndex) return afterMatch;
  const codePoint = text.codePointAt(matchIndex);
  return matchIndex + (codePoint !== undefined && codePoint > 0xffff ? 2 : 1);
}

function overlaps(a: LinkifierMatch, b: LinkifierMatch): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * Zulip's topic_links: linkifier matches in a topic name (earlier linkifiers win overlaps), then
 * raw URLs in it, which are found between spaces and ! ; ) , ' " and get https:// when written
 * without a scheme.
 */
export function renderTopicLinks(topic: string, linkifiers: Linkifier[]): { text: string; url: string }[] {
  const candidates: LinkifierMatch[] = [];
  for (const linkifier of compileLinkifiers(linkifiers)) {
    candidates.push(...linkifierMatches(topic, linkifier).sort((a, b) => a.start - b.start));
  }
  const splitter = /[ !;),'"]/g;
  let pos = 0;
  while (pos < topic.length) {
    splitter.lastIndex = pos;
    const split = splitter.exec(topic);
    const end = split ? split.index : topic.length;
    const url = urlAtStart(topic.slice(pos, end));
    if (url) {
      const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url.text);
      candidates.push({ start: pos, end: pos + url.text.length, text: url.text, url: hasScheme ? url.text : "https://" + url.text });
    }
    pos = end + 1;
  }
  const applied: LinkifierMatch[] = [];
  for (const candidate of candidates) {
    if (applied.every((m) => !overlaps(m, candidate))) applied.push(candidate);
  }
  return applied.sort((a, b) => a.start - b.start).map(({ text, url }) => ({ text, url }));
}
