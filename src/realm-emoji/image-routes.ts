/**
 * Custom emoji images at the site root, `GET /user_avatars/{realm_id}/emoji/images/{file_name}`
 * (the `source_url` of realm_emoji), served to anyone as Zulip serves avatars and emoji: browsers
 * load them in <img> tags without credentials. Only files a realm_emoji row names are served, with
 * the type their (checked) format gave them; a file name is random and never reused, so the bytes
 * may be cached for good.
 */
import type { FastifyInstance } from "fastify";
import { fileNotFound } from "../access/attachments.js";
import { emojiPathId } from "../actions/realm-emoji.js";
import type { AppDeps } from "../deps.js";
import { contentTypeOfExtension } from "../lib/image-types.js";
import { readTx } from "../store/db.js";
import { getRealmEmojiByFileName } from "../store/realm-emoji.js";
import { uploadStorage } from "../uploads/storage.js";

export function registerEmojiImageRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { realm_id: string; file_name: string } }>("/user_avatars/:realm_id/emoji/images/:file_name", async (request, reply) => {
    const { realm_id, file_name } = request.params;
    const contentType = contentTypeOfExtension(file_name);
    if (!/^\d{1,15}$/.test(realm_id) || !contentType) throw fileNotFound();
    const emoji = await getRealmEmojiByFileName(readTx(deps.store), Number(realm_id), file_name);
    if (!emoji) throw fileNotFound();
    const storage = uploadStorage(deps.config);
    const pathId = emojiPathId(emoji.realm_id, emoji.file_name);
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
  });
}
