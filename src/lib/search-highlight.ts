/**
 * The `search` narrow operand and its highlights. The operand is split into words and "quoted
 * phrases"; the stores match them with their own full-text engines (both stem English words), and
 * results carry `match_content`/`match_subject`: the rendered content and HTML-escaped topic with
 * every matching word wrapped in `<span class="highlight">`. Highlighting runs here, on text outside
 * tags and entities, with a light suffix-stripping stemmer standing in for the engines' stemmers.
 */

export interface SearchText {
  words: string[];
  phrases: string[];
}

const WORD = /[\p{L}\p{N}_]+/gu;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Splits a search operand into plain words and quoted phrases; pure punctuation is dropped. */
export function parseSearchText(text: string): SearchText {
  const words: string[] = [];
  const phrases: string[] = [];
  for (const token of text.match(/"[^"]+"|\S+/g) ?? []) {
    if (token.length > 2 && token.startsWith('"') && token.endsWith('"')) {
      const phrase = token.slice(1, -1).trim();
      if (HAS_WORD.test(phrase)) phrases.push(phrase);
    } else {
      const word = token.replaceAll('"', "");
      if (HAS_WORD.test(word)) words.push(word);
    }
  }
  return { words, phrases };
}

/** A light English stemmer: enough to map inflections the stores' stemmers conflate onto one key. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, "");
  if (w.length > 4 && w.endsWith("ies")) w = w.slice(0, -3) + "y";
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  for (const suffix of ["ing", "ed", "ly"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 2) {
      w = w.slice(0, -suffix.length);
      if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  return w.length > 2 ? w.replace(/e$/, "") : w;
}

/** The stems a highlighted word may have: every word of every word and phrase. */
export function highlightKeys(search: SearchText): Set<string> {
  const keys = new Set<string>();
  for (const part of [...search.words, ...search.phrases]) {
    for (const w of part.match(WORD) ?? []) keys.add(stem(w));
  }
  return keys;
}

function highlightText(text: string, keys: ReadonlySet<string>): string {
  return text.replace(WORD, (w) => (keys.has(stem(w)) ? `<span class="highlight">${w}</span>` : w));
}

/** Wraps matching words of the HTML's text (never inside a tag or an entity). */
export function highlightHtml(html: string, keys: ReadonlySet<string>): string {
  if (keys.size === 0) return html;
  return html
    .split(/(<[^>]*>|&[#\w]+;)/)
    // split() with a capturing group puts the tags and entities at the odd indexes.
    .map((part, i) => (i % 2 === 1 ? part : highlightText(part, keys)))
    .join("");
}

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");
}
