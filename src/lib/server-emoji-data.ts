/**
 * The file register's server_emoji_data_url names (FL 140): a JSON object with one property,
 * code_to_names, mapping each Unicode emoji code the server accepts to its names, the canonical
 * one first (lib/emoji.ts, from the emoji-datasource package). Built once, on first use, and kept:
 * the data changes only with the server. Its URL carries a hash of the content, so a client may
 * cache it for good, as Zulip's content-hashed static file.
 */
import { createHash } from "node:crypto";
import { unicodeEmojiNamesByCode } from "./emoji.js";

export interface ServerEmojiData {
  /** The JSON text served. */
  body: Buffer;
  /** A hash of the body: in the file name and the ETag. */
  hash: string;
}

/** Where the file is served, below the site root (the realm's URL in front). */
export const EMOJI_DATA_DIR = "/static/generated/emoji";

let built: ServerEmojiData | undefined;

export function serverEmojiData(): ServerEmojiData {
  if (!built) {
    const body = Buffer.from(JSON.stringify({ code_to_names: Object.fromEntries(unicodeEmojiNamesByCode()) }));
    built = { body, hash: createHash("sha256").update(body).digest("hex").slice(0, 16) };
  }
  return built;
}

/** The hashed file name, `emoji_api.{hash}.json`. */
export function serverEmojiDataFileName(): string {
  return `emoji_api.${serverEmojiData().hash}.json`;
}

/** server_emoji_data_url: absolute, since the mobile app fetches it as it stands. */
export function serverEmojiDataUrl(realmUrl: string): string {
  return `${realmUrl}${EMOJI_DATA_DIR}/${serverEmojiDataFileName()}`;
}
