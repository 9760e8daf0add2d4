/** Emoji reaction endpoints (spec 4.18; Zulip's add-reaction and remove-reaction). */
import { REACTION_TYPE } from "../actions/realm/emoji-data.js";
import { checkAddReaction, checkRemoveReaction } from "../actions/messages/reactions.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const addReaction = endpoint({
  method: "POST",
  path: "/messages/:message_id/reactions",
  auth: "user",
  params: {
    message_id: p.int().path(),
    emoji_name: p.str(),
    emoji_code: p.str().optional(),
    reaction_type: p.str().optional(),
  },
  async handler(ctx, params) {
    await checkAddReaction(ctx.deps, ctx.user, params.message_id, {
      emojiName: params.emoji_name,
      emojiCode: params.emoji_code,
      reactionType: params.reaction_type,
    });
  },
});

export const removeReaction = endpoint({
  method: "DELETE",
  path: "/messages/:message_id/reactions",
  auth: "user",
  params: {
    message_id: p.int().path(),
    emoji_name: p.str().optional(),
    emoji_code: p.str().optional(),
    // Unlike adding, removal has always assumed Unicode emoji when no type is given.
    reaction_type: p.str().default(REACTION_TYPE.UNICODE),
  },
  async handler(ctx, params) {
    await checkRemoveReaction(ctx.deps, ctx.user, params.message_id, {
      emojiName: params.emoji_name,
      emojiCode: params.emoji_code,
      reactionType: params.reaction_type,
    });
  },
});

export const reactionEndpoints = [addReaction, removeReaction];
