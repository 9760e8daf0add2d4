/**
 * Bare URLs and mail addresses in text become links, following Zulip's rules:
 *
 * - a link starts at the beginning of the text or after whitespace or one of ' " ( , : <
 *   (so "javascript:foo.com" links only foo.com, and "itms://itunes.com" links nothing);
 * - it is http(s):// plus a host, or a bare host whose last label is a known TLD, or an address
 *   like a@b.com (which cannot have a path);
 * - a path, query or fragment runs to whitespace or a double quote; parentheses inside must
 *   balance, at most seven deep (a Wikipedia "Foo_(bar)" keeps its parenthesis, a sentence's
 *   closing one does not);
 * - trailing punctuation (! : ; ? , . ' " >) is not part of the link, and what follows the link
 *   must be such punctuation and then whitespace or the end, so "a.commandstuff()" is no link.
 */
import { TLDS } from "./tlds.js";

export interface UrlMatch {
  start: number;
  end: number;
  /** The text as written. */
  text: string;
  /** Target before sanitizing: with http:// or mailto: added where the text has no scheme. */
  url: string;
}

const START_AFTER = /[\s'"(,:<]/u;
const SCHEME_HOST = /https?:\/\/[\p{L}\p{N}_.:@-]+/uy;
const BARE_HOST = /(?:[\p{L}\p{N}_-]+\.)+([\p{L}\p{N}_-]+)/uy;
const EMAIL = /[\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+\.[\p{L}\p{N}_]+/uy;
const TRAILING = new Set(["!", ":", ";", "?", ",", ".", "'", '"', ">"]);
const FOLLOWING = /[!:;?),.'">]*(?:\s|$)/uy;
const MAX_PAREN_DEPTH = 7;

function sticky(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

/** End of a path/query/fragment starting at `at`, or -1 when its parentheses do not balance. */
function scanTail(text: string, at: number): number {
  let depth = 0;
  let i = at;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || /\s/.test(ch)) break;
    if (ch === "(") {
      if (++depth > MAX_PAREN_DEPTH) return -1;
    } else if (ch === ")") {
      if (depth === 0) break;
      depth--;
    }
  }
  return depth === 0 ? i : -1;
}

function finish(text: string, start: number, end: number, prefix: string): UrlMatch | null {
  if (end <= start || !sticky(FOLLOWING, text, end)) return null;
  const matched = text.slice(start, end);
  return { start, end, text: matched, url: prefix + matched };
}

function hostMatchAt(text: string, i: number): UrlMatch | null {
  const schemeHost = sticky(SCHEME_HOST, text, i);
  const bareHost = schemeHost ? null : sticky(BARE_HOST, text, i);
  const host = schemeHost ?? (bareHost && TLDS.has(bareHost[1].toLowerCase()) ? bareHost : null);
  if (!host) return null;
  let end = i + host[0].length;
  if (text[end] === "/" || text[end] === "?" || text[end] === "#") {
    end = scanTail(text, end);
    if (end < 0) return null;
  }
  while (end > i && TRAILING.has(text[end - 1])) end--;
  return finish(text, i, end, schemeHost ? "" : "http://");
}

function matchAt(text: string, i: number): UrlMatch | null {
  const host = hostMatchAt(text, i);
  if (host) return host;
  const email = sticky(EMAIL, text, i);
  return email ? finish(text, i, i + email[0].length, "mailto:") : null;
}

// Only words containing ".", "@" or "://" can hold a link; looking at just those keeps plain prose
// cheap. Words are cut first and tested after: a single pattern like /\S*(?:[.@]|:\/\/)\S*/ retries
// from every position of a long word without one, which is quadratic (found by fuzzing).
const WORD = /\S+/g;
const MAY_HOLD_LINK = /[.@]|:\/\//;

export function findUrls(text: string): UrlMatch[] {
  const found: UrlMatch[] = [];
  WORD.lastIndex = 0;
  let word: RegExpExecArray | null;
  while ((word = WORD.exec(text)) !== null) {
    if (!MAY_HOLD_LINK.test(word[0])) continue;
    const end = word.index + word[0].length;
    for (let i = word.index; i < end; i++) {
      if (i > 0 && !START_AFTER.test(text[i - 1])) continue;
      const m = matchAt(text, i);
      if (m) {
        found.push(m);
        i = m.end - 1;
      }
    }
  }
  return found;
}

/** Matches a URL that starts exactly at the start of `text` (used for topic names). */
export function urlAtStart(text: string): UrlMatch | null {
  return matchAt(text, 0);
}
