/** Credential endpoints: spec 4.10, 4.14 and API-key rotation. */
import { checkFetchApiKey, doRegenerateApiKey, jwtFetchApiKeyAnswer } from "../actions/auth/auth.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

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
    return jwtFetchApiKeyAnswer(ctx.deps, ctx.realm, token, include_profile);
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
