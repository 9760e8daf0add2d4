/**
 * Video call routes a browser loads outside /api/v1 (Zulip's web routes in zproject/urls.py):
 * - `GET /calls/bigbluebutton/join?bigbluebutton=…`: where the link of GET
 *   /calls/bigbluebutton/create leads (Zulip's join_bigbluebutton); the signed-in user is sent on
 *   to the BigBlueButton server's join URL.
 * - `GET /calls/webex/register`: sends the signed-in user to Webex to authorize this server
 *   (register_webex_user); `GET /calls/webex/complete?code&state`: where Webex sends them back,
 *   on the root domain, which first forwards to the realm named in `state` (complete_webex_user).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { joinBigBlueButtonCall } from "../actions/calls/video-calls.js";
import { completeWebexAuthorization, webexAuthorizationUrl, webexSessionId } from "../actions/calls/webex-calls.js";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { realmUrl } from "../lib/realm-url.js";
import type { UserRow } from "../store/types.js";
import { subdomainFromHost } from "./realm-host.js";
import { authenticateBasicOrSession, sessionTokenOf } from "./session-auth.js";

const missing = (name: string) => new ApiError(`Missing '${name}' argument`, "REQUEST_VARIABLE_MISSING", 400, { var_name: name });

/** Bounds on what Webex hands back: an authorization code and our own state. */
const MAX_OAUTH_PARAM_LENGTH = 4096;

/** The credential the request signed in with: its session, else its Basic credentials. */
function credentialOf(request: FastifyRequest): string {
  return sessionTokenOf(request.headers.cookie) ?? request.headers.authorization ?? "";
}

function sessionIdFor(deps: AppDeps, user: UserRow, request: FastifyRequest): string {
  return webexSessionId(deps.config, user.id, credentialOf(request));
}

/** Zulip's state for the OAuth flow: `{"realm": subdomain, "sid": …}`. */
function parseState(raw: string): { realm: string; sid: string } {
  let state: unknown;
  try {
    state = JSON.parse(raw);
  } catch {
    throw new ApiError("Argument \"state\" is not valid JSON.", "BAD_REQUEST");
  }
  const { realm, sid } = (state ?? {}) as { realm?: unknown; sid?: unknown };
  if (typeof realm !== "string" || typeof sid !== "string" || !/^[a-z0-9-]*$/.test(realm)) throw new ApiError("Invalid state");
  return { realm, sid };
}

const CLOSE_WINDOW_PAGE =
  '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Done</title></head><body><p>You may close this window.</p><script>window.close();</script></body></html>';

export function registerVideoCallRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: { bigbluebutton?: string } }>("/calls/bigbluebutton/join", async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    const signed = request.query.bigbluebutton;
    if (typeof signed !== "string" || signed === "") throw missing("bigbluebutton");
    if (signed.length > 4096) throw new ApiError("Invalid signature.");
    return reply.header("cache-control", "no-store").redirect(await joinBigBlueButtonCall(deps.config, user, signed));
  });

  app.get("/calls/webex/register", async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    const subdomain = subdomainFromHost(request.headers.host, deps.config.externalHost);
    const target = webexAuthorizationUrl(deps.config, subdomain, sessionIdFor(deps, user, request));
    return reply.header("cache-control", "no-store").redirect(target);
  });

  app.get<{ Querystring: { code?: string; state?: string } }>("/calls/webex/complete", async (request, reply) => {
    const { code, state } = request.query;
    if (typeof code !== "string" || code === "") throw missing("code");
    if (typeof state !== "string" || state === "") throw missing("state");
    if (code.length > MAX_OAUTH_PARAM_LENGTH || state.length > MAX_OAUTH_PARAM_LENGTH) throw new ApiError("Invalid Webex credentials");
    const { realm, sid } = parseState(state);
    // Webex returns to the root domain; the user's session is on their realm's host.
    if (subdomainFromHost(request.headers.host, deps.config.externalHost) !== realm) {
      return reply.header("cache-control", "no-store").redirect(`${realmUrl(deps.config.externalHost, realm)}${request.url}`);
    }
    const { user } = await authenticateBasicOrSession(deps, request);
    await completeWebexAuthorization(deps, user, code, sid, sessionIdFor(deps, user, request));
    return reply.header("cache-control", "no-store").type("text/html; charset=utf-8").send(CLOSE_WINDOW_PAGE);
  });
}
