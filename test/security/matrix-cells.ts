/**
 * One row of the permission matrix: an endpoint called by each kind of caller. The four
 * unauthenticated kinds send credentials realm A must refuse; the six roles are realm A's fixture
 * users (or a fresh account of the same role when the call changes the caller's own account).
 */
import type { AnyEndpoint } from "../../src/http/endpoint.js";
import type { ApiResponse, TestUser, UserName } from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import type { Objects } from "./objects.js";
import { fillPath, SAMPLES, type Sample, type Shared } from "./permission-samples.js";
import { inject, type Method, type World } from "./world.js";

export const ROLES = ["guest", "member", "moderator", "admin", "owner", "bot"] as const;
export type Role = (typeof ROLES)[number];

export const UNAUTHENTICATED = ["none", "badKey", "deactivated", "otherRealm"] as const;
export type Unauthenticated = (typeof UNAUTHENTICATED)[number];

export type Identity = Unauthenticated | Role;
export const IDENTITIES: readonly Identity[] = [...UNAUTHENTICATED, ...ROLES];

/** The fixture user playing each role in realm A. */
const ROLE_USERS: Record<Role, UserName> = {
  guest: "polonius",
  member: "hamlet",
  moderator: "shiva",
  admin: "iago",
  owner: "desdemona",
  bot: "bot",
};

const ROLE_NUMBERS: Record<Exclude<Role, "bot">, number> = { guest: 600, member: 400, moderator: 300, admin: 200, owner: 100 };

export function endpointKey(ep: Pick<AnyEndpoint, "method" | "path">): string {
  return `${ep.method} ${ep.path}`;
}

export interface MatrixState {
  world: World;
  /** Objects in realm A. */
  o: Objects;
  shared: Shared;
  /** A deactivated member of realm A. */
  deactivated: TestUser;
}

/** The Authorization header each unauthenticated kind sends to realm A's host. */
function unauthenticatedHeader(state: MatrixState, identity: Unauthenticated): string | undefined {
  const { a, b } = state.world;
  switch (identity) {
    case "none":
      return undefined;
    case "badKey":
      return basicAuth({ email: a.users.hamlet.email, apiKey: "x".repeat(32) });
    case "deactivated":
      return basicAuth(state.deactivated);
    case "otherRealm":
      return basicAuth(b.users.hamlet);
  }
}

async function roleCaller(state: MatrixState, role: Role, fresh: boolean): Promise<TestUser> {
  if (!fresh) return state.world.a.users[ROLE_USERS[role]];
  return role === "bot" ? state.o.bot("desdemona") : state.o.user(ROLE_NUMBERS[role]);
}

async function send(state: MatrixState, ep: AnyEndpoint, authorization: string | undefined, sample: Sample): Promise<ApiResponse> {
  const { a } = state.world;
  const req = { method: ep.method as Method, path: fillPath(ep.path, sample.path), params: sample.params, files: sample.files };
  return inject(a.app, a.host, authorization, req);
}

/**
 * Calls the endpoint as every kind of caller. The unauthenticated kinds share one request built
 * for hamlet (they are refused before the handler, or the endpoint needs no credentials and the
 * call changes nothing); each role gets a request built for it, with objects of its own.
 */
export async function callRow(state: MatrixState, ep: AnyEndpoint): Promise<Record<Identity, ApiResponse>> {
  const entry = SAMPLES[endpointKey(ep)];
  const context = { o: state.o, shared: state.shared };
  const row = {} as Record<Identity, ApiResponse>;
  const forHamlet = await entry.build({ ...context, caller: state.world.a.users.hamlet });
  for (const identity of UNAUTHENTICATED) row[identity] = await send(state, ep, unauthenticatedHeader(state, identity), forHamlet);
  for (const role of ROLES) {
    const caller = await roleCaller(state, role, entry.freshCaller ?? false);
    row[role] = await send(state, ep, basicAuth(caller), await entry.build({ ...context, caller }));
  }
  return row;
}
