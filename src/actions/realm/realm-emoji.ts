/**
 * Custom emoji (issue 6, item 9; Zulip's get-custom-emoji, upload-custom-emoji and
 * deactivate-custom-emoji). Images are PNG, GIF, JPEG or WebP up to 5 MiB, recognised by their
 * bytes; they live in upload storage under `user_avatars/{realm_id}/emoji/images/{file}`, the path
 * of their URL (`source_url`), and an animated one's first frame under `…/images/still/{name}.png`
 * (`still_url`). Deactivated emoji keep their image: old messages still show it.
 * Every change reaches everyone: as the whole list (realm_emoji update), or, for clients with the
 * individual_emoji_changes capability (FL 491), as the one emoji added (add) or the one property
 * changed (update_one).
 */
import { Readable } from "node:stream";
import type { AppDeps } from "../../deps.js";
import { ApiError, insufficientPermission } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { presentRealmEmoji, realmEmojiState } from "../../events/state/misc.js";
import { unicodeEmojiByName } from "../../lib/emoji.js";
import { detectImageType, emojiStillFileName } from "../../lib/image-types.js";
import { randomToken } from "../../lib/secrets.js";
import { Membership } from "../../policy/group-settings.js";
import { isRealmAdmin } from "../../policy/roles.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { deactivateRealmEmoji, getActiveRealmEmojiByName, insertRealmEmoji, type RealmEmojiRow } from "../../store/realm-emoji.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";
import { uploadStorage } from "../../uploads/storage.js";
import { renderStillFrame } from "../../uploads/thumbnailer.js";
import { checkMemberOrAdmin } from "../caller-checks.js";
import type { IncomingFile } from "../uploads/uploads.js";

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB (zulip-facts section c). */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;
export const MAX_EMOJI_FILE_BYTES = MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024;
export const MAX_EMOJI_NAME_LENGTH = 60;

/** Where an emoji image is stored; the same path, below the site root, is its URL. */
export function emojiPathId(realmId: number, fileName: string): string {
  return `user_avatars/${realmId}/emoji/images/${fileName}`;
}

/** Where the still image (first frame) of an animated emoji is stored; its URL is its `still_url`. */
export function emojiStillPathId(realmId: number, fileName: string): string {
  return emojiPathId(realmId, `still/${emojiStillFileName(fileName)}`);
}

/**
 * Zulip's check_valid_emoji_name after its clean-up (trimmed, spaces as underscores): lowercase
 * letters, digits, dashes and underscores, ending with a letter or digit.
 */
export function checkEmojiName(raw: string): string {
  const name = raw.trim().replace(/ /g, "_");
  if (name === "") throw new ApiError("Emoji name is missing");
  if ([...name].length > MAX_EMOJI_NAME_LENGTH) throw new ApiError(`Emoji name is too long (limit: ${MAX_EMOJI_NAME_LENGTH} characters)`);
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw new ApiError("Emoji names must end with either a letter or digit.");
    return name;
  }
  throw new ApiError("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
}

export async function getRealmEmojiDict(deps: AppDeps, realm: RealmRow): Promise<Record<string, unknown>> {
  return (await realmEmojiState(readTx(deps.store), realm)).realm_emoji;
}

const INDIVIDUAL_EMOJI_CHANGES = "individual_emoji_changes";

type EmojiChange = { op: "add"; emoji: RealmEmojiRow } | { op: "update_one"; emojiId: number; data: { deactivated: boolean } };

async function publishRealmEmoji(deps: AppDeps, tx: Tx, realm: RealmRow, change: EmojiChange): Promise<void> {
  const audience = await listActiveUserIds(tx, realm.id);
  const { realm_emoji } = await realmEmojiState(tx, realm);
  publishOnCommit(tx, deps.events, { type: "realm_emoji", op: "update", realm_emoji, only_without: INDIVIDUAL_EMOJI_CHANGES }, audience);
  const event =
    change.op === "add"
      ? { type: "realm_emoji", op: "add", emoji: presentRealmEmoji(change.emoji) }
      : { type: "realm_emoji", op: "update_one", emoji_id: String(change.emojiId), data: change.data };
  publishOnCommit(tx, deps.events, { ...event, only_with: INDIVIDUAL_EMOJI_CHANGES }, audience);
}

/** Who may add this name: can_add_custom_emoji_group (never guests), a free name, admins for built-in names. */
async function checkMayAddEmoji(tx: Tx, realm: RealmRow, user: UserRow, name: string): Promise<void> {
  checkMemberOrAdmin(user);
  const membership = await Membership.load(tx, user);
  if (!membership.has(realm.can_add_custom_emoji_group_id, { allowEveryone: false })) throw insufficientPermission();
  if (await getActiveRealmEmojiByName(tx, realm.id, name)) throw new ApiError("A custom emoji with this name already exists.");
  if (unicodeEmojiByName(name) && !isRealmAdmin(user)) throw new ApiError("Only administrators can override built-in emoji.");
}

/** The one file part, whole, within the size limit; extra parts are drained and refused. */
async function readEmojiFile(parts: AsyncIterable<IncomingFile> | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let files = 0;
  let truncated = false;
  for await (const part of parts ?? []) {
    files += 1;
    if (files > 1) {
      part.file.resume();
      continue;
    }
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
    truncated = part.file.truncated;
  }
  if (files !== 1) throw new ApiError("You must upload exactly one file.");
  if (truncated) throw new ApiError(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  return Buffer.concat(chunks);
}

/** POST /realm/emoji/{emoji_name}: `parts` are the multipart file parts, limited to MAX_EMOJI_FILE_BYTES. */
export async function checkAddRealmEmoji(
  deps: AppDeps,
  realm: RealmRow,
  user: UserRow,
  rawName: string,
  parts: AsyncIterable<IncomingFile> | null,
): Promise<void> {
  const name = checkEmojiName(rawName);
  await checkMayAddEmoji(readTx(deps.store), realm, user, name);
  const data = await readEmojiFile(parts);
  const type = detectImageType(data);
  if (!type) throw new ApiError("Invalid image format", "BAD_IMAGE");
  const fileName = `${randomToken(12)}.${type.extension}`;
  const storage = uploadStorage(deps.config);
  const pathId = emojiPathId(realm.id, fileName);
  // An animated emoji also gets a still image, its first frame, for clients that do not animate
  // (its still_url; Zulip 5.0, feature level 97).
  const still = type.extension === "jpg" ? null : await renderStillFrame(data, String(user.id));
  const stillPathId = emojiStillPathId(realm.id, fileName);
  await storage.put(pathId, Readable.from([data]), type.contentType);
  try {
    if (still) await storage.put(stillPathId, Readable.from([still]), "image/png");
    await transaction(deps.store, async (tx) => {
      // Checked again inside the transaction: another upload may have taken the name meanwhile.
      await checkMayAddEmoji(tx, realm, user, name);
      const emoji = await insertRealmEmoji(tx, { realm_id: realm.id, name, author_id: user.id, file_name: fileName, is_animated: still !== null });
      await publishRealmEmoji(deps, tx, realm, { op: "add", emoji });
    });
  } catch (err) {
    await storage.delete(pathId);
    if (still) await storage.delete(stillPathId);
    throw err;
  }
}

/** DELETE /realm/emoji/{emoji_name}: administrators, or the emoji's author. */
export async function checkDeactivateRealmEmoji(deps: AppDeps, realm: RealmRow, user: UserRow, name: string): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const emoji = await getActiveRealmEmojiByName(tx, realm.id, name);
    if (!emoji) throw new ApiError(`Emoji '${name}' does not exist`, "BAD_REQUEST", 404);
    if (!isRealmAdmin(user) && emoji.author_id !== user.id) throw new ApiError("Must be an organization administrator or emoji author");
    await deactivateRealmEmoji(tx, emoji.id);
    await publishRealmEmoji(deps, tx, realm, { op: "update_one", emojiId: emoji.id, data: { deactivated: true } });
  });
}
