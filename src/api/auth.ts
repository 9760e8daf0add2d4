/** Credential endpoints: spec 4.10, 4.14 and API-key rotation. */
import { checkFetchApiKey, checkJwtFetchApiKey, doRegenerateApiKey } from "../actions/auth/auth.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { presentUser } from "../present/present-user.js";

export const fetchApiKey = endpoint({
  method: "POST",
  path: "/fetch_api_key",
  auth: "realm",
  params: { username: p.str(), password: p.str() },
  async handler(ctx, { username, password }) {
    const user = await checkFetchApiKey(ctx.deps, ctx.realm, username, password);
    return { api_key: user.api_key, email: user.email, user_id: user.id };
  },
});

export const jwtFetchApiKey = endpoint({
  method: "POST",
  path: "/jwt/fetch_api_key",
  auth: "realm",
  params: { token: p.str(), include_profile: p.bool().default(false) },
  async handler(ctx, { token, include_profile }) {
    const user = await checkJwtFetchApiKey(ctx.deps, ctx.realm, token);
    const result: Record<string, unknown> = { api_key: user.api_key, email: user.email };
    if (include_profile) result.user = presentUser(user, { gravatar: ctx.deps.config.enableGravatar, clientGravatar: false, viewerSeesEmail: true });
    return result;
  },
});

export const regenerateApiKey = endpoint({
  method: "POST",
  path: "/users/me/api_key/regenerate",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { api_key: await doRegenerateApiKey(ctx.deps, ctx.user) };
  },
});

export const authEndpoints = [fetchApiKey, jwtFetchApiKey, regenerateApiKey];
