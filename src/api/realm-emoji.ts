/** Custom emoji (Zulip's get-custom-emoji, upload-custom-emoji, deactivate-custom-emoji). */
import { checkAddRealmEmoji, checkDeactivateRealmEmoji, getRealmEmojiDict, MAX_EMOJI_FILE_BYTES } from "../actions/realm/realm-emoji.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const listRealmEmoji = endpoint({
  method: "GET",
  path: "/realm/emoji",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { emoji: await getRealmEmojiDict(ctx.deps, ctx.realm) };
  },
});

export const uploadRealmEmoji = endpoint({
  method: "POST",
  path: "/realm/emoji/:emoji_name",
  auth: "user",
  params: { emoji_name: p.str().path() },
  streamsFiles: true,
  async handler(ctx, { emoji_name }) {
    const { request } = ctx;
    // Past the limit the parser passes no more bytes and marks the part truncated; the action refuses it.
    const parts = request.isMultipart()
      ? request.files({ limits: { fileSize: MAX_EMOJI_FILE_BYTES, files: Infinity }, throwFileSizeLimit: false })
      : null;
    await checkAddRealmEmoji(ctx.deps, ctx.realm, ctx.user, emoji_name, parts);
  },
});

export const deactivateRealmEmoji = endpoint({
  method: "DELETE",
  path: "/realm/emoji/:emoji_name",
  auth: "user",
  params: { emoji_name: p.str().path() },
  async handler(ctx, { emoji_name }) {
    await checkDeactivateRealmEmoji(ctx.deps, ctx.realm, ctx.user, emoji_name);
  },
});

export const realmEmojiEndpoints = [listRealmEmoji, uploadRealmEmoji, deactivateRealmEmoji];
