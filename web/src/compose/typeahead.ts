/**
 * Compose typeahead (issue 20), the pure part: which token the caret is in, what it may complete
 * to, and the text after a pick. Zulip's syntax (help/mention-a-user-or-group, help/link-to-a-
 * message-or-conversation): `@**Full Name**` (with `|id` when two people share the name),
 * `@*group*`, silent `@_**Name**` / `@_*group*`, `#**channel**`, `#**channel>topic**`, `:emoji:`.
 */

export type TokenKind = "mention" | "channel" | "topic" | "emoji";

/** The text being completed: `text.slice(start, caret)`. */
export interface Token {
  kind: TokenKind;
  query: string;
  start: number;
  silent: boolean;
  /** For a topic: the channel named before `>`. */
  channel?: string;
}

export interface Suggestion {
  key: string;
  label: string;
  /** A second, muted line: an email, a group's description, a channel name. */
  detail?: string;
  /** A Unicode character or an image URL shown before the label. */
  glyph?: { text?: string; src?: string };
  /** What replaces the token. */
  insert: string;
  /**
   * Another key that accepts the item, with another text: `>` on a channel inserts `#**channel>`
   * and so starts its topic completion, as in Zulip's compose box.
   */
  alternative?: { key: string; insert: string };
}

export interface CompletionSources {
  users: ReadonlyArray<{ user_id: number; full_name: string; email: string; is_active: boolean }>;
  groups: ReadonlyArray<{ name: string; description: string; is_system_group: boolean; deactivated?: boolean }>;
  channels: readonly string[];
  /** Topic names of the channel a `#**channel>` token names, once loaded. */
  topics: readonly string[];
  emoji: ReadonlyArray<{ name: string; aliases?: readonly string[]; glyph: { text?: string; src?: string } }>;
}

export const MAX_SUGGESTIONS = 8;
/** Zulip's wildcard mentions (help/mention-a-user-or-group#mention-everyone-on-a-channel). */
const WILDCARDS = [
  { name: "all", detail: "Notify everyone in the channel" },
  { name: "everyone", detail: "Notify everyone in the channel" },
  { name: "channel", detail: "Notify everyone in the channel" },
  { name: "topic", detail: "Notify everyone in the topic" },
];

// A token starts the text or follows a space or an opening bracket, so `a@b.c` and `10:30` stay text.
const BEFORE = String.raw`(?:^|[\s(\[{>"'])`;
const MENTION = new RegExp(`${BEFORE}@(_?)\\*{0,2}([^*@\\n]{0,40})$`);
const TOPIC = new RegExp(`${BEFORE}#\\*{0,2}([^*#>\\n]{1,60})>([^*\\n]{0,60})$`);
const CHANNEL = new RegExp(`${BEFORE}#\\*{0,2}([^*#>\\n]{0,60})$`);
const EMOJI = new RegExp(`${BEFORE}:([\\w+-]{1,40})$`);

/** The token the caret ends, if any. */
export function tokenAt(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  // The trigger character is not among those a token may follow, so its first place is the start.
  const start = (match: RegExpExecArray, trigger: string) => match.index + match[0].indexOf(trigger);
  const topic = TOPIC.exec(before);
  if (topic) return { kind: "topic", query: topic[2], channel: topic[1], start: start(topic, "#"), silent: false };
  const channel = CHANNEL.exec(before);
  if (channel) return { kind: "channel", query: channel[1], start: start(channel, "#"), silent: false };
  const mention = MENTION.exec(before);
  // A name has at most a few words; a longer run after `@` is ordinary text.
  if (mention && mention[2].split(" ").length <= 4) return { kind: "mention", query: mention[2], start: start(mention, "@"), silent: mention[1] === "_" };
  const emoji = EMOJI.exec(before);
  // Two characters at least, as in Zulip, so a `:` in prose does not open a list.
  if (emoji && emoji[1].length >= 2) return { kind: "emoji", query: emoji[1], start: start(emoji, ":"), silent: false };
  return null;
}

/** 0 for a prefix of the whole text, 1 for a prefix of a later word, 2 for elsewhere; -1 for none. */
export function matchRank(text: string, query: string): number {
  const t = text.toLowerCase();
  const q = query.toLowerCase().trim();
  if (q === "" || t.startsWith(q)) return 0;
  if (t.split(/[\s_-]+/).some((word) => word.startsWith(q))) return 1;
  return t.includes(q) ? 2 : -1;
}

/** The items whose best name matches, best rank first, then in the order given; at most `limit`. */
export function rankByName<T>(items: readonly T[], query: string, names: (item: T) => readonly string[], limit = MAX_SUGGESTIONS): T[] {
  const ranked: Array<[number, number, T]> = [];
  items.forEach((item, i) => {
    const ranks = names(item).map((n) => matchRank(n, query)).filter((r) => r >= 0);
    if (ranks.length > 0) ranked.push([Math.min(...ranks), i, item]);
  });
  return ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, limit).map(([, , item]) => item);
}

function mentionSuggestions(token: Token, sources: CompletionSources): Suggestion[] {
  const silent = token.silent ? "_" : "";
  const active = sources.users.filter((u) => u.is_active);
  const nameCount = new Map<string, number>();
  for (const u of active) nameCount.set(u.full_name.toLowerCase(), (nameCount.get(u.full_name.toLowerCase()) ?? 0) + 1);
  const people = rankByName(active, token.query, (u) => [u.full_name, u.email]).map<Suggestion>((u) => ({
    key: `user:${u.user_id}`,
    label: u.full_name,
    detail: u.email,
    insert: `@${silent}**${u.full_name}${(nameCount.get(u.full_name.toLowerCase()) ?? 0) > 1 ? `|${u.user_id}` : ""}** `,
  }));
  const groups = rankByName(
    sources.groups.filter((g) => !g.deactivated && !g.is_system_group),
    token.query,
    (g) => [g.name],
  ).map<Suggestion>((g) => ({ key: `group:${g.name}`, label: g.name, detail: g.description || "User group", insert: `@${silent}*${g.name}* ` }));
  // Silent mentions notify nobody, so a silent wildcard means nothing (Zulip offers none).
  const wildcards = token.silent ? [] : rankByName(WILDCARDS, token.query, (w) => [w.name]).map<Suggestion>((w) => ({ key: `wildcard:${w.name}`, label: w.name, detail: w.detail, insert: `@**${w.name}** ` }));
  return [...people, ...groups, ...wildcards].slice(0, MAX_SUGGESTIONS);
}

export function suggestionsFor(token: Token, sources: CompletionSources): Suggestion[] {
  switch (token.kind) {
    case "mention":
      return mentionSuggestions(token, sources);
    case "channel":
      return rankByName(sources.channels, token.query, (c) => [c]).map((c) => ({ key: `channel:${c}`, label: `#${c}`, insert: `#**${c}** `, alternative: { key: ">", insert: `#**${c}>` } }));
    case "topic":
      return rankByName(sources.topics, token.query, (t) => [t]).map((t) => ({ key: `topic:${t}`, label: t, detail: `#${token.channel}`, insert: `#**${token.channel}>${t}** ` }));
    case "emoji":
      return rankByName(sources.emoji, token.query, (e) => [e.name, ...(e.aliases ?? [])]).map((e) => ({ key: `emoji:${e.name}`, label: `:${e.name}:`, glyph: e.glyph, insert: `:${e.name}: ` }));
  }
}

/** The text and caret after replacing the token with `insert`. */
export function applySuggestion(text: string, caret: number, token: Token, insert: string): { text: string; caret: number } {
  const after = text.slice(caret);
  // A space already after the caret is not doubled.
  const insertion = after.startsWith(" ") && insert.endsWith(" ") ? insert.slice(0, -1) : insert;
  return { text: text.slice(0, token.start) + insertion + after, caret: token.start + insertion.length + (insertion === insert ? 0 : 1) };
}
