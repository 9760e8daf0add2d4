/**
 * The search box's text as a narrow (zulip-openapi.yaml, "Construct a narrow"; Zulip's help
 * "Search for messages"): `operator:operand` terms such as `sender:alice@example.com`,
 * `channel:engineering topic:deploys`, `has:image`, `is:starred`, `dm:bob@example.com`, with
 * `-` in front to negate and quotes around operands with spaces; every other word is searched
 * for as text. Names and emails are sent as typed: the server resolves them (and answers an
 * unknown one with a BAD_NARROW error, shown to the reader).
 */

export interface SearchTerm {
  operator: string;
  operand: string;
  negated: boolean;
}

/** Operators the search box understands, with the older names Zulip still accepts. */
const OPERATOR_NAMES: Record<string, string> = {
  channel: "channel",
  stream: "channel",
  topic: "topic",
  subject: "topic",
  sender: "sender",
  from: "sender",
  dm: "dm",
  "pm-with": "dm",
  "dm-including": "dm-including",
  is: "is",
  has: "has",
  id: "id",
  near: "near",
  channels: "channels",
  streams: "channels",
  search: "search",
};

/** Searching is bounded by the server (MAX_SEARCH_WORDS); the box keeps the text short enough. */
export const MAX_SEARCH_LENGTH = 1000;

/** Splits on spaces, keeping `"quoted phrases"` (with or without an operator prefix) whole. */
function tokens(text: string): string[] {
  return text.match(/-?[\w-]+:"[^"]*"?|"[^"]*"?|\S+/g) ?? [];
}

const unquote = (s: string) => s.replace(/^"|"$/g, "");

export function parseSearch(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  for (const token of tokens(text.slice(0, MAX_SEARCH_LENGTH))) {
    const m = /^(-?)([\w-]+):(.+)$/.exec(token);
    const operator = m ? OPERATOR_NAMES[m[2].toLowerCase()] : undefined;
    if (!m || !operator || operator === "search") {
      words.push(m && operator === "search" ? unquote(m[3]) : token);
      continue;
    }
    terms.push({ operator, operand: unquote(m[3]), negated: m[1] === "-" });
  }
  const search = words.join(" ").trim();
  if (search) terms.push({ operator: "search", operand: search, negated: false });
  return terms;
}

/** The words of a query that are searched as text (for the title and highlighting). */
export function searchWords(text: string): string {
  return parseSearch(text).find((t) => t.operator === "search")?.operand ?? "";
}

const ID_OPERATORS = new Set(["id", "near", "sender", "channel", "dm-including"]);

/** Terms as the API's narrow: ids as numbers; `dm` a list of ids or the emails as typed. */
export function searchNarrow(text: string): Array<{ operator: string; operand: string | number | number[]; negated?: boolean }> {
  return parseSearch(text).map((t) => {
    const ids = t.operand.split(",").map((p) => p.trim());
    let operand: string | number | number[] = t.operand;
    if (ID_OPERATORS.has(t.operator) && /^\d+$/.test(t.operand)) operand = Number(t.operand);
    else if (t.operator === "dm" && ids.every((p) => /^\d+$/.test(p))) operand = ids.map(Number);
    return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
  });
}

interface SuggestionSources {
  channels: string[];
  /** Emails of people, for sender: and dm:. */
  people: string[];
  topics: string[];
}

const OPERATOR_HINTS = ["channel:", "topic:", "sender:", "dm:", "has:image", "has:link", "has:attachment", "has:reaction", "is:starred", "is:mentioned", "is:unread", "is:dm", "is:resolved"];
const MAX_SUGGESTIONS = 12;

/** Completions of the last word of `text` (operators, then channel names, emails or topics). */
export function searchSuggestions(text: string, sources: SuggestionSources): string[] {
  const at = text.search(/\S+$/);
  const head = at < 0 ? text : text.slice(0, at);
  const last = at < 0 ? "" : text.slice(at).toLowerCase();
  const m = /^(-?)([\w-]+):(.*)$/.exec(last);
  let options: string[];
  if (m && ["channel", "stream"].includes(m[2])) options = sources.channels.map((c) => `${m[1]}channel:${c.includes(" ") ? `"${c}"` : c}`);
  else if (m && ["sender", "from", "dm"].includes(m[2])) options = sources.people.map((p) => `${m[1]}${m[2]}:${p}`);
  else if (m && m[2] === "topic") options = sources.topics.map((t) => `${m[1]}topic:${t.includes(" ") ? `"${t}"` : t}`);
  else options = OPERATOR_HINTS;
  return options
    .filter((o) => {
      const plain = o.toLowerCase().replace(/"/g, "");
      return plain.startsWith(last.replace(/"/g, "")) && o.toLowerCase() !== last;
    })
    .slice(0, MAX_SUGGESTIONS)
    .map((o) => `${head}${o}`);
}
