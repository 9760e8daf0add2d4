/**
 * Avatar routes at the site root, outside /api/v1, where Zulip has them:
 * - `GET /avatar/{user_id}`, `GET /avatar/{email}` and their `/medium` variants: a 302 to the
 *   user's avatar (actions/users/avatars.ts), for a user authenticated with HTTP Basic (the mobile app)
 *   or a session cookie (a browser), the request's query string carried over as Zulip does;
 * - the images Parley draws itself where Zulip would show Gravatar or its default image
 *   (lib/avatar-urls.ts): `/user_avatars/{realm_id}/defaults/{user_id}.png` (100 px) and
 *   `{user_id}-medium.png` (500 px), the realm's icon `realm-icon.png`, and the avatar of unknown
 *   users `/static/images/default-avatar.png`, and the one of users a guest may not access
 *   `/static/images/unknown-user-avatar.png`. These are public, as avatars are in Zulip, and name
 *   nothing but ids; drawn from the ids alone, each is the same forever and cached for good.
 * Errors keep Zulip's JSON envelope (the app's error handler).
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fileNotFound } from "../access/attachments.js";
import { getAvatarRedirect } from "../actions/users/avatars.js";
import type { AppDeps } from "../deps.js";
import { sendCachedBody } from "./cached-body.js";
import { subdomainFromHost } from "./realm-host.js";
import { authenticateBasicOrSession, sessionTokenOf } from "./session-auth.js";
import { AVATAR_SIZE, INACCESSIBLE_USER_AVATAR_PATH, MEDIUM_AVATAR_SIZE } from "../lib/avatar-urls.js";
import { identiconPng } from "../lib/identicon.js";
import { readTx } from "../store/db.js";
import { getRealmBySubdomain } from "../store/realms.js";
import type { RealmRow, UserRow } from "../store/types.js";
import { nonexistentSubdomain } from "../errors.js";

/** Images kept drawn; past this many, the least recently asked for is drawn again when needed. */
const MAX_CACHED_IMAGES = 2000;

/** The viewer, or null for a request without credentials (a spectator, if the realm allows them). */
async function viewerOf(deps: AppDeps, request: FastifyRequest): Promise<{ realm: RealmRow; user: UserRow | null }> {
  if (request.headers.authorization || sessionTokenOf(request.headers.cookie) !== undefined) return authenticateBasicOrSession(deps, request);
  const realm = await getRealmBySubdomain(readTx(deps.store), subdomainFromHost(request.headers.host, deps.config.externalHost));
  if (!realm) throw nonexistentSubdomain();
  return { realm, user: null };
}

/** `Location` for a redirect: the avatar URL with the request's own query string appended. */
function withQuery(url: string, request: FastifyRequest): string {
  const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
  return query === "" ? url : `${url}${url.includes("?") ? "&" : "?"}${query}`;
}

export function registerAvatarRoutes(app: FastifyInstance, deps: AppDeps): void {
  const drawn = new Map<string, Buffer>();
  const image = (request: FastifyRequest, reply: FastifyReply, seed: string, size: number) => {
    const key = `${seed}\u0000${size}`;
    let png = drawn.get(key);
    if (png) drawn.delete(key);
    else png = identiconPng(seed, size);
    drawn.set(key, png);
    if (drawn.size > MAX_CACHED_IMAGES) drawn.delete(drawn.keys().next().value as string);
    const etag = `"${createHash("sha256").update(key).digest("base64url").slice(0, 24)}"`;
    return sendCachedBody(request, reply, { body: png, contentType: "image/png", etag, immutable: true });
  };

  const redirect = (medium: boolean) => async (request: FastifyRequest<{ Params: { key: string } }>, reply: FastifyReply) => {
    const { realm, user } = await viewerOf(deps, request);
    const url = await getAvatarRedirect(deps, realm, user, request.params.key, medium);
    return reply.header("Cache-Control", "private, max-age=3600").redirect(withQuery(url, request), 302);
  };
  app.get<{ Params: { key: string } }>("/avatar/:key", redirect(false));
  app.get<{ Params: { key: string } }>("/avatar/:key/medium", redirect(true));

  app.get<{ Params: { realm_id: string; name: string } }>("/user_avatars/:realm_id/defaults/:name", async (request, reply) => {
    const { realm_id, name } = request.params;
    if (!/^\d{1,15}$/.test(realm_id)) throw fileNotFound();
    if (name === "realm-icon.png") return image(request, reply, `realm:${realm_id}`, AVATAR_SIZE);
    const m = /^(\d{1,15})(-medium)?\.png$/.exec(name);
    if (!m) throw fileNotFound();
    return image(request, reply, `user:${realm_id}:${m[1]}`, m[2] ? MEDIUM_AVATAR_SIZE : AVATAR_SIZE);
  });
  app.get("/static/images/default-avatar.png", async (request, reply) => image(request, reply, "unknown", AVATAR_SIZE));
  app.get(INACCESSIBLE_USER_AVATAR_PATH, async (request, reply) => image(request, reply, "inaccessible", AVATAR_SIZE));
  app.get("/static/images/default-avatar-medium.png", async (request, reply) => image(request, reply, "unknown", MEDIUM_AVATAR_SIZE));
}
