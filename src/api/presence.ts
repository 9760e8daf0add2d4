/** Presence endpoints: update own presence, realm presence, one user's presence. */
import { loadUserAccess, userIdFromSegment } from "../access/users.js";
import { checkHumanCaller } from "../actions/caller-checks.js";
import { presenceRowsFor, presentPresenceLegacy, presentPresenceModern, presentUserPresence } from "../actions/users/presence.js";
import { ApiError, invalidUser } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { readTx } from "../store/db.js";
import type { PresenceRow } from "../store/presence.js";
import type { UserRow } from "../store/types.js";
import { getUserByDeliveryEmail, getUserById, getUsersByIds } from "../store/users.js";

async function presencesBody(rows: PresenceRow[], modern: boolean, users: () => Promise<UserRow[]>): Promise<Record<string, unknown>> {
  if (modern) return Object.fromEntries(rows.map((r) => [String(r.user_id), presentPresenceModern(r)]));
  const byId = new Map((await users()).map((u) => [u.id, u]));
  return Object.fromEntries(rows.filter((r) => byId.has(r.user_id)).map((r) => [byId.get(r.user_id)!.email, presentPresenceLegacy(r)]));
}

export const updatePresence = endpoint({
  method: "POST",
  path: "/users/me/presence",
  auth: "user",
  params: {
    status: p.oneOf(["active", "idle"] as const),
    ping_only: p.bool().default(false),
    new_user_input: p.bool().default(false),
    slim_presence: p.bool().default(false),
    last_update_id: p.int().optional(),
    history_limit_days: p.int().optional(),
  },
  async handler(ctx, params) {
    // Bots have no presence (Zulip's update_active_status_backend is human_users_only).
    checkHumanCaller(ctx.user);
    const now = ctx.deps.clock.now();
    ctx.deps.presence.record(ctx.user, params.status === "active", now);
    if (params.ping_only) return {};
    const rows = await presenceRowsFor(ctx.deps, ctx.user, await ctx.deps.presence.realmPresence(ctx.realm.id, now));
    const modern = params.slim_presence || params.last_update_id !== undefined;
    const since = params.last_update_id ?? -1;
    const changed = rows.filter((r) => r.last_update_id > since);
    const body: Record<string, unknown> = {
      presences: await presencesBody(changed, modern, () => getUsersByIds(readTx(ctx.deps.store), ctx.realm.id, changed.map((r) => r.user_id))),
      server_timestamp: now,
      zephyr_mirror_active: false,
    };
    if (params.last_update_id !== undefined) body.presence_last_update_id = Math.max(-1, ...rows.map((r) => r.last_update_id));
    return body;
  },
});

export const getRealmPresence = endpoint({
  method: "GET",
  path: "/realm/presence",
  auth: "user",
  params: {},
  async handler(ctx) {
    const now = ctx.deps.clock.now();
    const rows = await presenceRowsFor(ctx.deps, ctx.user, await ctx.deps.presence.realmPresence(ctx.realm.id, now));
    return {
      presences: await presencesBody(rows, false, () => getUsersByIds(readTx(ctx.deps.store), ctx.realm.id, rows.map((r) => r.user_id))),
      server_timestamp: now,
    };
  },
});

export const getUserPresence = endpoint({
  method: "GET",
  path: "/users/:user_id/presence",
  auth: "user",
  params: { user_id: p.str().path() },
  async handler(ctx, { user_id }) {
    const tx = readTx(ctx.deps.store);
    const id = userIdFromSegment(user_id);
    const target = id !== null ? await getUserById(tx, ctx.realm.id, id) : await getUserByDeliveryEmail(tx, ctx.realm.id, user_id);
    if (!target) throw invalidUser();
    if (ctx.deps.config.canAccessAllUsersGroupLimitsPresence && !(await loadUserAccess(tx, ctx.user)).canAccess(target)) {
      throw new ApiError("Insufficient permission");
    }
    const row = await ctx.deps.presence.userPresence(target.id);
    if (!row) throw new ApiError(`No presence data for ${target.email}`);
    return { presence: presentUserPresence(row, ctx.deps.clock.now()) };
  },
});

export const presenceEndpoints = [updatePresence, getRealmPresence, getUserPresence];
