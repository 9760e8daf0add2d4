/**
 * Web login and logout at the site root, where Zulip has them (outside /api/v1):
 * - `POST /accounts/login/` with `username` (email) and `password`: checks them as fetch_api_key
 *   does, starts a session on the realm the Host names and sets the `sessionid` cookie; answers
 *   `{"result":"success","msg":"","user_id":…,"email":…}`.
 * - `POST /accounts/logout/`: ends the cookie's session (if any) and clears the cookie.
 * - `POST /accounts/api_key/` (Parley's own): the API key of the cookie's user, so the web client
 *   signs in a person who has just joined through an invitation link (the join form started the
 *   session) without asking for the password again (issue 20). Zulip's web app needs no key, as
 *   it calls /json/ with the cookie; the answer is readable only by the same origin.
 * Both refuse a foreign Origin (login CSRF), are limited per address like other unauthenticated
 * calls, and are never cached.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkLogin, doLogout } from "../actions/auth/sessions.js";
import type { AppDeps } from "../deps.js";
import { p, parseParams } from "./params.js";
import { RATE_LIMIT_RULES } from "../lib/rate-limiter.js";
import { enforceRate } from "./rate-limit.js";
import { subdomainFromHost } from "./realm-host.js";
import { collectRawParams } from "./request-params.js";
import { sendSuccess } from "./respond.js";
import { authenticateBasicOrSession, checkSameOrigin, clearSessionCookie, sessionTokenOf, setSessionCookie } from "./session-auth.js";

const LOGIN_PARAMS = { username: p.str(), password: p.str() };

/** The per-address limit of unauthenticated calls (the reset form uses it too). */
export async function limitByAddress(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (deps.rateLimiter) reply.headers(await enforceRate(deps.rateLimiter, `ip:${request.ip}`, RATE_LIMIT_RULES.api_by_ip, deps.clock.now()));
}

export function registerSessionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const login = async (request: FastifyRequest, reply: FastifyReply) => {
    checkSameOrigin(request);
    await limitByAddress(deps, request, reply);
    const { values, ignored } = parseParams(LOGIN_PARAMS, await collectRawParams(request, false), {});
    const subdomain = subdomainFromHost(request.headers.host, deps.config.externalHost);
    const { token, user } = await checkLogin(deps, subdomain, values.username, values.password);
    setSessionCookie(deps, request, reply, token);
    reply.header("Cache-Control", "no-store");
    return sendSuccess(reply, { user_id: user.id, email: user.email }, ignored);
  };

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    checkSameOrigin(request);
    await limitByAddress(deps, request, reply);
    await doLogout(deps, sessionTokenOf(request.headers.cookie));
    clearSessionCookie(deps, request, reply);
    reply.header("Cache-Control", "no-store");
    return sendSuccess(reply, {}, []);
  };

  const apiKey = async (request: FastifyRequest, reply: FastifyReply) => {
    checkSameOrigin(request);
    await limitByAddress(deps, request, reply);
    const { user } = await authenticateBasicOrSession(deps, request);
    reply.header("Cache-Control", "no-store");
    return sendSuccess(reply, { api_key: user.api_key, email: user.email, user_id: user.id }, []);
  };

  for (const url of ["/accounts/login/", "/accounts/login"]) app.post(url, login);
  for (const url of ["/accounts/api_key/", "/accounts/api_key"]) app.post(url, apiKey);
  for (const url of ["/accounts/logout/", "/accounts/logout"]) app.post(url, logout);
}
