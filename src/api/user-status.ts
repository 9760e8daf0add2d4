/** Status endpoints (spec 4.12; Zulip's update-status, get-user-status and update-status-for-user). */
import { getStatusOf, updateOwnStatus, updateStatusOf } from "../actions/users/user-status.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { readTx } from "../store/db.js";

export const updateStatus = endpoint({
  method: "POST",
  path: "/users/me/status",
  auth: "user",
  params: {
    status_text: p.str().optional(),
    away: p.bool().optional(),
    emoji_name: p.str().optional(),
    emoji_code: p.str().optional(),
    reaction_type: p.str().optional(),
  },
  async handler(ctx, params) {
    await updateOwnStatus(ctx.deps, ctx.user, {
      statusText: params.status_text,
      away: params.away,
      emojiName: params.emoji_name,
      emojiCode: params.emoji_code,
      reactionType: params.reaction_type,
    });
  },
});

export const getUserStatus = endpoint({
  method: "GET",
  path: "/users/:user_id/status",
  auth: "user",
  params: { user_id: p.int().path() },
  async handler(ctx, { user_id }) {
    return { status: await getStatusOf(readTx(ctx.deps.store), ctx.user, user_id) };
  },
});

export const updateUserStatus = endpoint({
  method: "POST",
  path: "/users/:user_id/status",
  auth: "user",
  params: {
    user_id: p.int().path(),
    status_text: p.str().optional(),
    emoji_name: p.str().optional(),
    emoji_code: p.str().optional(),
    reaction_type: p.str().optional(),
  },
  async handler(ctx, params) {
    await updateStatusOf(ctx.deps, ctx.user, params.user_id, {
      statusText: params.status_text,
      emojiName: params.emoji_name,
      emojiCode: params.emoji_code,
      reactionType: params.reaction_type,
    });
  },
});

export const userStatusEndpoints = [updateStatus, getUserStatus, updateUserStatus];
