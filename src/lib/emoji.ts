/**
 * Unicode emoji names and codes, the way Zulip spells them.
 *
 * Zulip identifies a Unicode emoji by its `emoji_code`: the lowercase hex codepoints joined with
 * dashes, with every U+FE0F variation selector removed ("1f44d", "0023-20e3", "1f937-200d-2640").
 * Its names are underscore-separated (`thumbs_up`, `slight_smile`), and an emoji may have aliases
 * (`+1` for `thumbs_up`). The first name of an emoji is its canonical name: the one rendered
 * Markdown shows for a pasted Unicode character, and the one reactions report.
 *
 * Our data source is the emoji-datasource package (iamcal's list, which Zulip's own list also
 * started from). Its short names mostly agree with Zulip's; where they do not, ZULIP_NAMES below
 * gives Zulip's names for that code, and those replace the package's names for it entirely
 * (so `:fried_egg:` does not exist, as in Zulip, where 1f373 is only `cooking`). An emoji whose
 * package names are all taken by such overrides falls back to its Unicode name in snake case
 * (U+1F431 CAT FACE becomes `cat_face`, since Zulip's `cat` is U+1F408).
 *
 * The table is built once, on first use, so importing this module costs nothing.
 */
import { createRequire } from "node:module";

export interface UnicodeEmoji {
  /** Canonical Zulip-style name, e.g. `thumbs_up`. */
  name: string;
  /** Zulip emoji_code, e.g. `1f44d`. */
  code: string;
}

interface DatasourceEntry {
  name: string | null;
  unified: string;
  short_names: string[];
  category: string;
}

/**
 * Zulip's names for emoji whose emoji-datasource short names differ from them; first is canonical.
 * Limited to emoji Zulip users commonly type, react with, or get from emoticon translation.
 */
const ZULIP_NAMES: Record<string, string[]> = {
  "1f44d": ["thumbs_up", "+1", "like"],
  "1f44e": ["thumbs_down", "-1"],
  "1f642": ["slight_smile"],
  "1f641": ["frown"],
  "1f610": ["neutral"],
  "1f914": ["thinking"],
  "1f916": ["robot"],
  "1f384": ["holiday_tree"],
  "2797": ["division"],
  "2b06": ["up"],
  "1f199": ["up_button"],
  "1f947": ["gold"],
  "1f948": ["silver"],
  "1f949": ["bronze"],
  "1f408": ["cat"],
  "1f415": ["dog"],
  "1f407": ["rabbit"],
  "1f95d": ["kiwi"],
  "1f373": ["cooking"],
  "1f4a9": ["poop"],
  "2705": ["check"],
  "274c": ["cross_mark"],
  "1f389": ["tada"],
  "2764": ["heart", "love"],
  "1f602": ["joy", "laughter_tears"],
  "1f62e": ["open_mouth"],
};

let byName: Map<string, UnicodeEmoji> | undefined;
let byCode: Map<string, UnicodeEmoji> | undefined;
let namesByCode: Map<string, readonly string[]> | undefined;

/** "1F441-FE0F-200D-1F5E8-FE0F" -> "1f441-200d-1f5e8" */
function toZulipCode(unified: string): string {
  return unified
    .toLowerCase()
    .split("-")
    .filter((part) => part !== "fe0f")
    .join("-");
}

/** Package short names use dashes inside ZWJ sequence names; Zulip uses underscores. */
function toZulipName(shortName: string): string {
  return shortName.replace(/-/g, "_");
}

function buildTables(): void {
  const require = createRequire(import.meta.url);
  const entries = require("emoji-datasource/emoji.json") as DatasourceEntry[];
  const names = new Map<string, UnicodeEmoji>();
  const codes = new Map<string, UnicodeEmoji>();
  const allNames = new Map<string, readonly string[]>();
  const claimed = new Set(Object.values(ZULIP_NAMES).flat());

  const add = (code: string, emojiNames: string[]): void => {
    const usable = [...new Set(emojiNames.filter((n) => n !== "" && !names.has(n)))];
    if (usable.length === 0) return;
    const canonical: UnicodeEmoji = { name: usable[0], code };
    codes.set(code, canonical);
    allNames.set(code, usable);
    for (const n of usable) names.set(n, { name: n, code });
  };

  for (const [code, zulipNames] of Object.entries(ZULIP_NAMES)) add(code, zulipNames);
  for (const entry of entries) {
    // Skin tone modifiers and hair components are not emoji of their own in Zulip.
    if (entry.category === "Component") continue;
    const code = toZulipCode(entry.unified);
    if (codes.has(code) || code in ZULIP_NAMES) continue;
    let own = entry.short_names.map(toZulipName).filter((n) => !claimed.has(n));
    if (own.length === 0 && entry.name) {
      own = [entry.name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "")];
    }
    add(code, own);
  }
  byName = names;
  byCode = codes;
  namesByCode = allNames;
}

/** Every Unicode emoji code with all its names, the canonical one first (server_emoji_data_url). */
export function unicodeEmojiNamesByCode(): ReadonlyMap<string, readonly string[]> {
  if (!namesByCode) buildTables();
  return namesByCode!;
}

/** Looks up a name or alias (`smile`, `+1`); returns the entry under that name. */
export function unicodeEmojiByName(name: string): UnicodeEmoji | undefined {
  if (!byName) buildTables();
  return byName!.get(name);
}

/** Looks up an emoji_code (`1f44d`); returns it with its canonical name. */
export function unicodeEmojiByCode(code: string): UnicodeEmoji | undefined {
  if (!byCode) buildTables();
  return byCode!.get(code.toLowerCase());
}

export function isValidUnicodeEmojiCode(code: string): boolean {
  return unicodeEmojiByCode(code) !== undefined;
}

/** The Zulip emoji_code of a string of Unicode characters, FE0F selectors dropped. */
export function emojiCodeOfText(text: string): string {
  const parts: string[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfe0f) continue;
    parts.push(cp.toString(16).padStart(4, "0"));
  }
  return parts.join("-");
}
