/**
 * Which emoji a name or (name, code, type) triple means in a realm, the way reactions (and
 * statuses) need it (spec conventions 8): custom emoji of the realm first, then the service's extra
 * emoji, then Unicode emoji from lib/emoji.
 */
import { ApiError } from "../../errors.js";
import { unicodeEmojiByCode, unicodeEmojiByName } from "../../lib/emoji.js";
import type { Tx } from "../../store/db.js";
import { getRealmEmojiById } from "../../store/reactions.js";
import { getRealmEmojiByNames } from "../../store/render-refs.js";

/**
 * Zulip's reaction types (api/add-reaction, reaction_type). The server's own extra emoji
 * (`:zulip:`) are `zulip_extra_emoji`: clients such as the mobile app refuse any other value.
 */
export const REACTION_TYPE = {
  UNICODE: "unicode_emoji",
  REALM: "realm_emoji",
  EXTRA: "zulip_extra_emoji",
} as const;

/** Emoji that ship with the service itself; their emoji_code is their name. */
const EXTRA_EMOJI: readonly string[] = ["zulip"];

export interface EmojiData {
  emojiCode: string;
  reactionType: string;
}

/** The emoji a bare name means now; "Emoji 'x' does not exist" when none does. */
export async function getEmojiData(tx: Tx, realmId: number, name: string): Promise<EmojiData> {
  const custom = (await getRealmEmojiByNames(tx, realmId, [name])).find((e) => !e.deactivated);
  if (custom) return { emojiCode: String(custom.id), reactionType: REACTION_TYPE.REALM };
  if (EXTRA_EMOJI.includes(name)) return { emojiCode: name, reactionType: REACTION_TYPE.EXTRA };
  const unicode = unicodeEmojiByName(name);
  if (unicode) return { emojiCode: unicode.code, reactionType: REACTION_TYPE.UNICODE };
  throw new ApiError(`Emoji '${name}' does not exist`);
}

/** Refuses a (name, code, type) triple that does not name one usable emoji of the realm. */
export async function checkEmojiRequest(tx: Tx, realmId: number, name: string, code: string, reactionType: string): Promise<void> {
  switch (reactionType) {
    case REACTION_TYPE.REALM: {
      // Past 2^53 digits are no id (as a number they read 1e+31, which PostgreSQL cannot parse).
      const custom = /^\d+$/.test(code) && Number.isSafeInteger(Number(code)) ? await getRealmEmojiById(tx, realmId, Number(code)) : undefined;
      if (!custom || String(custom.id) !== code) throw new ApiError("Invalid custom emoji.");
      if (custom.name !== name) throw new ApiError("Invalid custom emoji name.");
      if (custom.deactivated) throw new ApiError("This custom emoji has been deactivated.");
      return;
    }
    case REACTION_TYPE.EXTRA:
      if (!EXTRA_EMOJI.includes(code)) throw new ApiError("Invalid emoji code.");
      if (name !== code) throw new ApiError("Invalid emoji name.");
      return;
    case REACTION_TYPE.UNICODE:
      if (unicodeEmojiByCode(code)?.code !== code) throw new ApiError("Invalid emoji code.");
      if (unicodeEmojiByName(name)?.code !== code) throw new ApiError("Invalid emoji name.");
      return;
    default:
      throw new ApiError("Invalid emoji type.");
  }
}
