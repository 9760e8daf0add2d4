/**
 * Linkifiers (Zulip's "realm filters"): a regex with named groups plus an RFC 6570 URL template.
 * As in Zulip, a match only counts when it starts the text or follows whitespace or one of
 * ' " ( , : <, and is not followed by a letter or digit; so with `#(?P<id>[0-9]+)`, "#123" links
 * but "a#123" and "#123abc" do not. Linkifiers apply to message text outside code and links, and
 * to topic names (topic_links).
 */
import RE2 from "re2";
import { parseTemplate } from "url-template";
import { urlAtStart } from "./autolink.js";
import type { CompiledLinkifier, Linkifier } from "./types.js";

const BEFORE = "zulipLinkifierBefore";
const MATCH = "zulipLinkifierMatch";
const AFTER = "zulipLinkifierAfter";

/**
 * Compiles a linkifier pattern with RE2, as Zulip does (zerver/lib/markdown: linkifiers run on
 * re2): matching takes time linear in the text whatever the pattern, so an administrator's
 * `(a+)+!` cannot stall the process on a member's message (issue 16, F4). RE2 reads Zulip's
 * syntax as it is (`(?P<name>…)`, `(?i)`, `\pL`) and refuses what it cannot run in linear time
 * (lookaround, backreferences) with an Error whose message is RE2's reason.
 */
export function linkifierRegex(source: string, flags = ""): RE2 {
  return new RE2(source, "u" + flags);
}

/**
 * Zulip's prepare_linkifier_pattern: the pattern only matches at the start of the text, after
 * whitespace (RE2's ASCII \s, NEL or any Unicode separator) or one of ' " ( , : <, and when no
 * letter or digit follows.
 */
function wrapPattern(pattern: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"(,:<])(?P<${MATCH}>${pattern})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

function compile(linkifier: Linkifier): CompiledLinkifier | null {
  try {
    return { regex: linkifierRegex(wrapPattern(linkifier.pattern), "g"), template: parseTemplate(linkifier.url_template) };
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
