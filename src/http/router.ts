/**
 * Registers the endpoint table with Fastify under /api/v1. One generic handler serves every
 * endpoint: realm from Host → auth gate → parameters from the declaration → handler → envelope.
 * Paths get a 405 route for the methods they don't serve (zulip-facts section e).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../deps.js";
import { realmAdmitsSpectators } from "../access/spectators.js";
import { ApiError, mustBeAdmin, mustBeOwner, nonexistentSubdomain, serviceUnavailable, unauthorized } from "../errors.js";
import { isOwner, isRealmAdmin, BOT_TYPE } from "../policy/roles.js";
import { readTx } from "../store/db.js";
import { getRealmBySubdomain } from "../store/realms.js";
import type { UserRow } from "../store/types.js";
import { authenticateApiKey, parseBasicAuth } from "./auth.js";
import { RATE_LIMIT_RULES } from "../lib/rate-limiter.js";
import { enforceRate } from "./rate-limit.js";
import type { AnyEndpoint, HttpMethod, UserContext, PublicContext, SpectatorContext } from "./endpoint.js";
import { parseParams } from "./params.js";
import { subdomainFromHost } from "./realm-host.js";
import { collectRawParams } from "./request-params.js";
import { noteUser } from "./request-log.js";
import { sendSuccess } from "./respond.js";
import type { JsonMembers } from "../lib/json-text.js";

export const API_PREFIX = "/api/v1";
const ALL_METHODS: HttpMethod[] = ["GET", "POST", "PATCH", "PUT", "DELETE"];

/**
 * What every authenticated API call passes after authentication, as in Zulip: the per-user rate
 * limit (api_by_user), and incoming-webhook bots only where the endpoint admits them. Routes
 * outside the endpoint table that act as a user (tus uploads, the long-poll path) pass it too.
 * Returns the rate-limit headers to send, if any.
 */
export async function admitUser(deps: AppDeps, user: UserRow, allowWebhookBots: boolean): Promise<Record<string, string> | null> {
  const limits = deps.rateLimiter ? await enforceRate(deps.rateLimiter, `user:${user.id}`, RATE_LIMIT_RULES.api_by_user, deps.clock.now()) : null;
  if (user.bot_type === BOT_TYPE.INCOMING_WEBHOOK && !allowWebhookBots) {
    throw new ApiError("This API is not available to incoming webhook bots.");
  }
  return limits;
}

async function buildContext(
  deps: AppDeps,
  ep: AnyEndpoint,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<PublicContext | UserContext | SpectatorContext> {
  const subdomain = subdomainFromHost(request.headers.host, deps.config.externalHost);
  const base = { deps, request, reply, subdomain };
  // Parsed once: a "spectator" endpoint called without credentials is served to a spectator.
  const credentials = ep.auth === "none" || ep.auth === "realm" ? undefined : parseBasicAuth(request.headers.authorization);
  const spectator = ep.auth === "spectator" && credentials === undefined;
  if (ep.auth === "none" || ep.auth === "realm" || spectator) {
    // Unauthenticated calls are limited per client address (api_by_ip).
    if (deps.rateLimiter) reply.headers(await enforceRate(deps.rateLimiter, `ip:${request.ip}`, RATE_LIMIT_RULES.api_by_ip, deps.clock.now()));
  }
  if (ep.auth === "none") {
    return { ...base, realm: (await getRealmBySubdomain(readTx(deps.store), subdomain)) ?? null };
  }
  if (ep.auth === "realm" || spectator) {
    const tx = readTx(deps.store);
    const realm = await getRealmBySubdomain(tx, subdomain);
    if (!realm) throw nonexistentSubdomain();
    if (!spectator) return { ...base, realm };
    // Zulip resolves the realm first (an unknown subdomain is "Invalid subdomain"), then refuses
    // anonymous access unless the realm is web-public (zerver/views/users.py get_members_backend).
    if (!(await realmAdmitsSpectators(tx, deps.config, realm))) throw unauthorized();
    return { ...base, realm, user: null };
  }
  const { user, realm, stamp } = await authenticateApiKey(deps.store, credentials, subdomain);
  noteUser(request, user, realm);
  const limits = await admitUser(deps, user, ep.allowWebhookBots ?? false);
  if (limits) reply.headers(limits);
  if (ep.auth === "admin" && !isRealmAdmin(user)) throw mustBeAdmin();
  if (ep.auth === "owner" && !isOwner(user)) throw mustBeOwner();
  return { ...base, realm, user, stamp };
}

/**
 * While the event bus cannot promise delivery (Redis away), a write's events would be lost and a
 * new queue could not be fed: every call but a read is refused at once with a 503 (a send used to
 * hang for seconds and then lose its events). Reads still work from the store.
 */
function refuseWritesWhileEventsAreDown(deps: AppDeps, method: HttpMethod): void {
  if (method === "GET") return;
  const reason = deps.events.unavailable?.();
  if (reason) throw serviceUnavailable("Redis", reason);
}

function serve(deps: AppDeps, ep: AnyEndpoint) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    refuseWritesWhileEventsAreDown(deps, ep.method);
    const ctx = await buildContext(deps, ep, request, reply);
    const raw = await collectRawParams(request, ep.streamsFiles ?? false);
    const { values, ignored } = parseParams(ep.params, raw, request.params as Record<string, string>);
    const result = await ep.handler(ctx, values);
    if (result && "raw" in result && result.raw === true) return reply;
    return sendSuccess(reply, (result as Record<string, unknown> | JsonMembers | undefined) ?? {}, ignored);
  };
}

export function registerEndpoints(app: FastifyInstance, deps: AppDeps, endpoints: readonly AnyEndpoint[]): void {
  const methodsByPath = new Map<string, Set<HttpMethod>>();
  for (const ep of endpoints) {
    const methods = methodsByPath.get(ep.path) ?? new Set<HttpMethod>();
    if (methods.has(ep.method)) throw new Error(`duplicate endpoint ${ep.method} ${ep.path}`);
    methods.add(ep.method);
    methodsByPath.set(ep.path, methods);
    app.route({ method: ep.method, url: API_PREFIX + ep.path, handler: serve(deps, ep) });
  }
  for (const [path, methods] of methodsByPath) {
    const others = ALL_METHODS.filter((m) => !methods.has(m) && !(m === "GET" && methods.has("GET")));
    if (others.length === 0) continue;
    const allowed = [...methods].sort();
    app.route({
      method: others,
      url: API_PREFIX + path,
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header("Allow", allowed.join(", "))
          .send({ result: "error", msg: "Method Not Allowed", allowed_methods: allowed }),
    });
  }
}
