/**
 * Session-cookie authentication (spec section 5.3), next to HTTP Basic, for the routes a browser
 * reaches without an Authorization header: serving `/user_uploads/…` (and thumbnails) and the tus
 * endpoint `/api/v1/tus`. The cookie is `sessionid` (Django's name), HttpOnly, SameSite=Lax, for
 * the whole host, Secure over HTTPS or as configured.
 *
 * Requests that change state and are authenticated by the cookie must come from this host's own
 * pages: a browser always sends `Origin` on such cross-origin requests, so a foreign one is refused
 * with Zulip's CSRF_FAILED (403). SameSite=Lax already keeps the cookie off cross-site POSTs; this
 * also covers other subdomains of the same site (other realms).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { getSessionUser, SESSION_SECONDS } from "../actions/auth/sessions.js";
import type { AppDeps } from "../deps.js";
import { ApiError, unauthorized } from "../errors.js";
import type { RealmRow, UserRow } from "../store/types.js";
import { authenticateApiKey, parseBasicAuth } from "./auth.js";
import { subdomainFromHost } from "./realm-host.js";
import { noteUser } from "./request-log.js";

export const SESSION_COOKIE = "sessionid";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The `sessionid` value of a Cookie header (the first one, as browsers send the most specific first). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
  }
  return undefined;
}

function secureCookie(deps: AppDeps, request: FastifyRequest): boolean {
  return deps.config.sessionCookieSecure ?? request.protocol === "https";
}

function cookieHeader(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function setSessionCookie(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header("Set-Cookie", cookieHeader(token, SESSION_SECONDS, secureCookie(deps, request)));
}

export function clearSessionCookie(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): void {
  reply.header("Set-Cookie", cookieHeader("", 0, secureCookie(deps, request)));
}

/** Refuses a request whose `Origin` is another host than the one it was sent to. */
export function checkSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let originHost: string | null;
  try {
    originHost = origin === "null" ? null : new URL(origin).host.toLowerCase();
  } catch {
    originHost = null;
  }
  if (originHost !== (request.headers.host ?? "").toLowerCase()) {
    throw new ApiError(`CSRF error: Origin checking failed - ${origin} does not match any trusted origins.`, "CSRF_FAILED", 403);
  }
}

/**
 * Zulip's 401 for a browser request: the `Session` challenge, unlike Basic's, makes no browser
 * show a password dialog over an `<img>` whose session has ended.
 */
const sessionExpired = () => {
  const basic = unauthorized();
  return new ApiError(basic.message, basic.code, basic.status, {}, { "WWW-Authenticate": 'Session realm="zulip"' });
};

/**
 * The user of a request to the realm its Host names: HTTP Basic when an Authorization header is
 * present (its errors stand), otherwise the session cookie. Without either, the usual 401 with the
 * Basic challenge; with a session that is no longer valid, the same 401 with a Session challenge.
 */
export async function authenticateBasicOrSession(deps: AppDeps, request: FastifyRequest): Promise<{ user: UserRow; realm: RealmRow }> {
  const found = await basicOrSession(deps, request);
  noteUser(request, found.user, found.realm);
  return found;
}

async function basicOrSession(deps: AppDeps, request: FastifyRequest): Promise<{ user: UserRow; realm: RealmRow }> {
  const subdomain = subdomainFromHost(request.headers.host, deps.config.externalHost);
  const authorization = request.headers.authorization;
  if (authorization !== undefined && authorization !== "") {
    return authenticateApiKey(deps.store, parseBasicAuth(authorization), subdomain);
  }
  const token = sessionTokenOf(request.headers.cookie);
  if (token === undefined) throw unauthorized();
  const found = await getSessionUser(deps, subdomain, token);
  if (!found) throw sessionExpired();
  if (!SAFE_METHODS.has(request.method)) checkSameOrigin(request);
  return found;
}
