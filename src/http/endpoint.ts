/**
 * The endpoint declaration: everything the router needs to serve one Zulip operation, as data.
 * `src/api/<resource>.ts` files export these; `src/api/index.ts` collects them into one table that
 * the router, the permission matrix and the contract tests all walk.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppDeps } from "../deps.js";
import type { JsonMembers } from "../lib/json-text.js";
import type { ChangeStamp } from "../store/change-stamp.js";
import type { RealmRow, UserRow } from "../store/types.js";
import type { ParamTable, ParsedParams } from "./params.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * Coarse gate checked before the handler (architecture-anchors §6):
 * - "none": no realm needed (server-wide, e.g. server_settings);
 * - "realm": no credentials, but the Host must name an existing realm (fetch_api_key);
 * - "user": HTTP Basic email:api_key; "admin" and "owner" add a role check;
 * - "spectator": as "user" when credentials are sent; without them, the realm must admit
 *   spectators (access/spectators.ts, Zulip's allow_web_public_streams_access) and the handler
 *   runs with `user: null`, otherwise the same 401 as "user" (Zulip's MissingAuthenticationError).
 */
export type AuthGate = "none" | "realm" | "user" | "admin" | "owner" | "spectator";

export interface BaseContext {
  deps: AppDeps;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Subdomain named by the Host header ("" = root). */
  subdomain: string;
}

export interface PublicContext extends BaseContext {
  realm: RealmRow | null;
}

export interface RealmContext extends BaseContext {
  realm: RealmRow;
}

export interface UserContext extends BaseContext {
  realm: RealmRow;
  user: UserRow;
  /**
   * The change stamp the authentication rows were checked at (SQLite; null or absent otherwise):
   * a StampMemo read for the same request may use it instead of reading a stamp of its own.
   */
  stamp?: ChangeStamp | null;
}

/** A caller with credentials, or a spectator (`user: null`) in a realm that admits them. */
export interface SpectatorContext extends BaseContext {
  realm: RealmRow;
  user: UserRow | null;
  stamp?: ChangeStamp | null;
}

export type ContextFor<A extends AuthGate> = A extends "none"
  ? PublicContext
  : A extends "realm"
    ? RealmContext
    : A extends "spectator"
      ? SpectatorContext
      : UserContext;

/**
 * Data merged into the success envelope (or its members as JSON text already), or `raw` when the
 * handler wrote the reply itself.
 */
export type HandlerResult = Record<string, unknown> | JsonMembers | void | { raw: true };

export interface Endpoint<P extends ParamTable = ParamTable, A extends AuthGate = AuthGate> {
  method: HttpMethod;
  /** Relative to /api/v1, with `:name` path parameters (declared in `params` with `.path()`). */
  path: string;
  auth: A;
  params: P;
  /** Incoming-webhook bots may call it (Zulip allows them only webhook-style APIs). */
  allowWebhookBots?: boolean;
  /** Multipart file parts are left for the handler to stream (uploads); otherwise they're discarded. */
  streamsFiles?: boolean;
  handler(ctx: ContextFor<A>, params: ParsedParams<P>): Promise<HandlerResult>;
}

/** Declares an endpoint; exists only so TypeScript infers the parameter and context types. */
export function endpoint<P extends ParamTable, A extends AuthGate>(e: Endpoint<P, A>): Endpoint<P, A> {
  return e;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = Endpoint<any, any>;
