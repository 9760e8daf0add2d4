/**
 * Emoji files at the site root, served to anyone as Zulip serves avatars and emoji (browsers load
 * them in <img> tags, and the mobile app fetches the emoji data, without credentials):
 * - custom emoji images, `GET /user_avatars/{realm_id}/emoji/images/{file_name}` (the `source_url`
 *   of realm_emoji) and `…/images/still/{name}.png` (an animated one's `still_url`). Only files a
 *   realm_emoji row names are served, with the type their (checked) format gave them; a file name
 *   is random and never reused, so the bytes may be cached for good;
 * - the Unicode emoji data of register's server_emoji_data_url (lib/server-emoji-data.ts), at
 *   `GET /static/generated/emoji/emoji_api.{hash}.json`, cached for good, and under the unhashed
 *   name `emoji_api.json` for anyone who wants the current one.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { fileNotFound } from "../access/attachments.js";
import { emojiPathId, emojiStillPathId } from "../actions/realm/realm-emoji.js";
import type { AppDeps } from "../deps.js";
import { sendCachedBody } from "./cached-body.js";
import { EMOJI_DATA_DIR, serverEmojiData, serverEmojiDataFileName } from "../lib/server-emoji-data.js";
import { contentTypeOfExtension } from "../lib/image-types.js";
import { readTx } from "../store/db.js";
import { getAnimatedRealmEmojiByBaseName, getRealmEmojiByFileName } from "../store/realm-emoji.js";
import { uploadStorage } from "../uploads/storage.js";

/** Sends a stored emoji file (original or still) with the headers every emoji image gets. */
async function sendStored(deps: AppDeps, reply: FastifyReply, pathId: string, contentType: string) {
  const storage = uploadStorage(deps.config);
  const stored = await storage.stat(pathId);
  const stream = stored ? await storage.get(pathId) : null;
  if (!stored || !stream) throw fileNotFound();
  return reply
    .headers({
      "Content-Type": contentType,
      "Content-Length": stored.size,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
      "Cache-Control": "public, max-age=31536000, immutable",
    })
    .send(stream);
}

const REALM_ID = /^\d{1,15}$/;

export function registerEmojiImageRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { file_name: string } }>(`${EMOJI_DATA_DIR}/:file_name`, async (request, reply) => {
    const hashed = request.params.file_name === serverEmojiDataFileName();
    if (!hashed && request.params.file_name !== "emoji_api.json") throw fileNotFound();
    const data = serverEmojiData();
    return sendCachedBody(request, reply, { body: data.body, contentType: "application/json", etag: `"${data.hash}"`, immutable: hashed });
  });

  app.get<{ Params: { realm_id: string; file_name: string } }>("/user_avatars/:realm_id/emoji/images/:file_name", async (request, reply) => {
    const { realm_id, file_name } = request.params;
    const contentType = contentTypeOfExtension(file_name);
    if (!REALM_ID.test(realm_id) || !contentType) throw fileNotFound();
    const emoji = await getRealmEmojiByFileName(readTx(deps.store), Number(realm_id), file_name);
    if (!emoji) throw fileNotFound();
    return sendStored(deps, reply, emojiPathId(emoji.realm_id, emoji.file_name), contentType);
  });

  // An animated emoji's first frame (its still_url): `{the emoji's file name without extension}.png`.
  app.get<{ Params: { realm_id: string; file_name: string } }>("/user_avatars/:realm_id/emoji/images/still/:file_name", async (request, reply) => {
    const { realm_id, file_name } = request.params;
    const base = /^([A-Za-z0-9_-]{1,64})\.png$/.exec(file_name)?.[1];
    if (!REALM_ID.test(realm_id) || base === undefined) throw fileNotFound();
    const emoji = await getAnimatedRealmEmojiByBaseName(readTx(deps.store), Number(realm_id), base);
    if (!emoji) throw fileNotFound();
    return sendStored(deps, reply, emojiStillPathId(emoji.realm_id, emoji.file_name), "image/png");
  });
}
