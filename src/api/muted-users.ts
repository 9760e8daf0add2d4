/** Muting users (Zulip's mute-user and unmute-user; FL 48, bots FL 188). */
import { checkMuteUser, checkUnmuteUser } from "../actions/users/muted-users.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const muteUser = endpoint({
  method: "POST",
  path: "/users/me/muted_users/:muted_user_id",
  auth: "user",
  params: { muted_user_id: p.int().path() },
  async handler(ctx, { muted_user_id }) {
    await checkMuteUser(ctx.deps, ctx.user, muted_user_id);
  },
});

export const unmuteUser = endpoint({
  method: "DELETE",
  path: "/users/me/muted_users/:muted_user_id",
  auth: "user",
  params: { muted_user_id: p.int().path() },
  async handler(ctx, { muted_user_id }) {
    await checkUnmuteUser(ctx.deps, ctx.user, muted_user_id);
  },
});

export const mutedUserEndpoints = [muteUser, unmuteUser];
