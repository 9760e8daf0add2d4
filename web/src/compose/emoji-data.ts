/**
 * The full emoji set for the picker and `:` completion (issue 20): the server's Unicode emoji
 * data (register's server_emoji_data_url, FL 140: `{code_to_names: {code: [canonical, ...aliases]}}`),
 * fetched once on first need instead of bundled (about 50 KB), plus the realm's custom emoji and
 * Zulip's one extra emoji. Reactions name an emoji by (reaction_type, emoji_code, emoji_name).
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { emojiFromCode } from "../format";
import { useClientState } from "../session";
import type { RealmEmoji, Reaction } from "../state/types";

export type EmojiChoice = Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">;

export interface EmojiEntry extends EmojiChoice {
  aliases: readonly string[];
  glyph: { text?: string; src?: string };
}

/** Zulip's names and codes for the emoji people react with most: shown first. */
export const POPULAR_EMOJI: ReadonlyArray<{ name: string; code: string }> = [
  { name: "thumbs_up", code: "1f44d" },
  { name: "heart", code: "2764" },
  { name: "tada", code: "1f389" },
  { name: "smile", code: "1f604" },
  { name: "joy", code: "1f602" },
  { name: "eyes", code: "1f440" },
  { name: "rocket", code: "1f680" },
  { name: "check", code: "2705" },
  { name: "thinking", code: "1f914" },
  { name: "clap", code: "1f44f" },
  { name: "fire", code: "1f525" },
  { name: "octopus", code: "1f419" },
];

const ZULIP_EMOJI: EmojiEntry = { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji", aliases: [], glyph: { text: "🐙" } };
const DEFAULT_DATA_PATH = "/static/generated/emoji/emoji_api.json";
let unicode: Promise<EmojiEntry[]> | null = null;

const unicodeEntry = (code: string, names: readonly string[]): EmojiEntry => ({
  emoji_name: names[0],
  emoji_code: code,
  reaction_type: "unicode_emoji",
  aliases: names.slice(1),
  glyph: { text: emojiFromCode(code) },
});

/** The server's Unicode emoji, fetched once per page (same origin: the URL's path is used). */
export function loadUnicodeEmoji(url: string | undefined): Promise<EmojiEntry[]> {
  if (!unicode) {
    let path = DEFAULT_DATA_PATH;
    try {
      if (url) path = new URL(url, window.location.href).pathname;
    } catch {
      // keep the default
    }
    unicode = fetch(path)
      .then((r) => (r.ok ? (r.json() as Promise<{ code_to_names: Record<string, string[]> }>) : Promise.reject(new Error(String(r.status)))))
      .then((data) => Object.entries(data.code_to_names).filter(([, names]) => names.length > 0).map(([code, names]) => unicodeEntry(code, names)))
      .catch(() => {
        unicode = null; // try again next time
        return [];
      });
  }
  return unicode;
}

function customEntries(realmEmoji: Readonly<Record<string, RealmEmoji>>): EmojiEntry[] {
  return Object.values(realmEmoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ emoji_name: e.name, emoji_code: e.id, reaction_type: "realm_emoji" as const, aliases: [], glyph: { src: e.source_url } }));
}

/**
 * Every emoji the reader may use: popular ones first, then the realm's own, Zulip's, and the rest
 * of the Unicode set once loaded (each emoji once; loading starts once `enabled`). Custom emoji shadow Unicode ones of the same
 * name, as in Zulip.
 */
export function useAllEmoji(enabled = true): EmojiEntry[] {
  const realmEmoji = useClientState((s) => s.realmEmoji);
  const dataUrl = useClientState((s) => s.register.server_emoji_data_url as string | undefined);
  const [loaded, setLoaded] = useState<EmojiEntry[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void loadUnicodeEmoji(dataUrl).then((list) => live && setLoaded(list));
    return () => {
      live = false;
    };
  }, [dataUrl, enabled]);
  return useMemo(() => {
    const custom = customEntries(realmEmoji);
    const taken = new Set(custom.map((e) => e.emoji_name));
    const popular = POPULAR_EMOJI.map((p) => loaded?.find((e) => e.emoji_code === p.code) ?? unicodeEntry(p.code, [p.name]));
    const popularCodes = new Set(POPULAR_EMOJI.map((p) => p.code));
    const rest = (loaded ?? []).filter((e) => !popularCodes.has(e.emoji_code));
    return [...popular, ...custom, ZULIP_EMOJI, ...rest].filter((e) => e.reaction_type !== "unicode_emoji" || !taken.has(e.emoji_name));
  }, [realmEmoji, loaded]);
}
