/** SQL for user accounts (humans and bots). */
import { sql } from "kysely";
import type { Tx } from "./db.js";
import { realmList } from "./realm-lists.js";
import type { NewUser, UserRow, UserUpdate } from "./types.js";

/** The columns a user object is built from (present/present-user.ts; whole-realm lists read just these). */
export const PRESENTED_USER_COLUMNS = [
  "id", "realm_id", "email", "delivery_email", "full_name", "date_joined", "is_active", "role",
  "is_bot", "bot_type", "bot_owner_id", "timezone", "avatar_source", "avatar_version", "is_imported_stub", "is_deleted",
] as const;

export type PresentableUser = Pick<UserRow, (typeof PRESENTED_USER_COLUMNS)[number]>;

export async function getUserById(tx: Tx, realmId: number, id: number): Promise<UserRow | undefined> {
  return tx.db.selectFrom("users").selectAll().where("id", "=", id).where("realm_id", "=", realmId).executeTakeFirst();
}

/** Looks up by real (delivery) email, case-insensitively as the unique index compares (lower() on both sides), within one realm. */
/** The realm of a user known only by id (null when there is no such user). */
export async function getRealmIdOfUser(tx: Tx, userId: number): Promise<number | null> {
  const row = await tx.db.selectFrom("users").select("realm_id").where("id", "=", userId).executeTakeFirst();
  return row ? row.realm_id : null;
}

export async function getUserByDeliveryEmail(tx: Tx, realmId: number, email: string): Promise<UserRow | undefined> {
  return tx.db
    .selectFrom("users")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where(sql<string>`lower(delivery_email)`, "=", sql<string>`lower(${email})`)
    .executeTakeFirst();
}

/** Authentication's lookup lives with its row cache (auth-rows.ts); callers may keep importing it from here. */
export { getUserAndRealmByApiKey } from "./auth-rows.js";

export async function insertUser(tx: Tx, user: NewUser): Promise<number> {
  const row = await tx.db.insertInto("users").values(user).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(tx: Tx, id: number, changes: UserUpdate): Promise<void> {
  await tx.db.updateTable("users").set(changes).where("id", "=", id).execute();
}

export async function listUsers(tx: Tx, realmId: number): Promise<UserRow[]> {
  return tx.db.selectFrom("users").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/**
 * Every account of the realm with just what its user object and email visibility need: register
 * lists thousands, and reading whole rows (keys, password hashes) took a third longer (issue 8, S8).
 * Kept in memory until a user of the realm changes (realm-lists.ts).
 */
export async function listUsersToPresent(tx: Tx, realmId: number): Promise<readonly ListedUser[]> {
  return realmList(tx, realmId, "users-to-present", ["realm_users"], () =>
    tx.db.selectFrom("users").select([...PRESENTED_USER_COLUMNS, "settings"]).where("realm_id", "=", realmId).orderBy("id").execute(),
  );
}

export type ListedUser = Readonly<PresentableUser & Pick<UserRow, "settings">>;

/** The cached list by user id, built once per list (realm-lists.ts hands out the same array until it changes). */
const listIndexes = new WeakMap<readonly ListedUser[], Map<number, ListedUser>>();

/**
 * Users of one realm among `ids` (unknown ids left out), from the cached list of listUsersToPresent:
 * no rows read while the realm's users are unchanged. For hot paths that need no more than its
 * columns (typing notifications: issue 21).
 */
export async function getListedUsersByIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<ListedUser[]> {
  const list = await listUsersToPresent(tx, realmId);
  let byId = listIndexes.get(list);
  if (!byId) {
    byId = new Map(list.map((u) => [u.id, u]));
    listIndexes.set(list, byId);
  }
  const found: ListedUser[] = [];
  for (const id of new Set(ids)) {
    const u = byId.get(id);
    if (u) found.push(u);
  }
  return found;
}

export async function getUsersByIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return tx.db.selectFrom("users").selectAll().where("realm_id", "=", realmId).where("id", "in", [...new Set(ids)]).execute();
}

/** Users of one realm whose API email or real email is among `emails` (case-insensitive). */
export async function getUsersByEmails(tx: Tx, realmId: number, emails: readonly string[]): Promise<UserRow[]> {
  if (emails.length === 0) return [];
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  return tx.db
    .selectFrom("users")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where((eb) => eb.or([eb(sql<string>`lower(email)`, "in", lowered), eb(sql<string>`lower(delivery_email)`, "in", lowered)]))
    .execute();
}

/** Looks up by API email (the placeholder when the address is hidden), case-insensitively. */
export async function getUserByApiEmail(tx: Tx, realmId: number, email: string): Promise<UserRow | undefined> {
  return tx.db
    .selectFrom("users")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
}

export async function listActiveUsers(tx: Tx, realmId: number): Promise<UserRow[]> {
  return tx.db.selectFrom("users").selectAll().where("realm_id", "=", realmId).where("is_active", "=", true).orderBy("id").execute();
}

/** The realm's active bots. */
export async function listActiveBots(tx: Tx, realmId: number): Promise<UserRow[]> {
  return tx.db.selectFrom("users").selectAll().where("realm_id", "=", realmId).where("is_bot", "=", true).where("is_active", "=", true).orderBy("id").execute();
}

/** Every active account of the realm, bots included: the audience of realm-wide events. */
export async function listActiveUserIds(tx: Tx, realmId: number): Promise<number[]> {
  const rows = await tx.db.selectFrom("users").select("id").where("realm_id", "=", realmId).where("is_active", "=", true).execute();
  return rows.map((r) => r.id);
}

/** Active organization administrators and owners (the audience of bot events, with each bot's owner). */
export async function listActiveAdminIds(tx: Tx, realmId: number): Promise<number[]> {
  const rows = await tx.db
    .selectFrom("users")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("is_active", "=", true)
    // Roles 100 (owner) and 200 (administrator), spec conventions 7.
    .where("role", "<=", 200)
    .execute();
  return rows.map((r) => r.id);
}

export async function listBotsOwnedBy(tx: Tx, ownerId: number, opts: { activeOnly: boolean }): Promise<UserRow[]> {
  let q = tx.db.selectFrom("users").selectAll().where("bot_owner_id", "=", ownerId).where("is_bot", "=", true);
  if (opts.activeOnly) q = q.where("is_active", "=", true);
  return q.orderBy("date_joined").orderBy("id").execute();
}

/** Active human owners: the last one may neither leave the role nor be deactivated. */
export async function countActiveHumanOwners(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("is_active", "=", true)
    .where("is_bot", "=", false)
    // Role 100: organization owner (spec conventions 7).
    .where("role", "=", 100)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countActiveUsers(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("is_active", "=", true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getActiveUserIds(tx: Tx, realmId: number): Promise<number[]> {
  const rows = await tx.db.selectFrom("users").select("id").where("realm_id", "=", realmId).where("is_active", "=", true).execute();
  return rows.map((r) => r.id);
}

/** An active account with exactly this full name (bots' names must not clash with one). */
export async function activeUserWithFullName(tx: Tx, realmId: number, fullName: string): Promise<UserRow | undefined> {
  return tx.db
    .selectFrom("users")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("is_active", "=", true)
    .where("full_name", "=", fullName)
    .executeTakeFirst();
}

/**
 * Marks the user's subscriptions as belonging to an (in)active user, as Zulip does on
 * deactivation, so subscriber lists leave deactivated users out and reactivation restores them.
 */
export async function setSubscriptionsUserActive(tx: Tx, userId: number, active: boolean): Promise<void> {
  await tx.db.updateTable("subscriptions").set({ is_user_active: active }).where("user_id", "=", userId).execute();
}

export async function deleteSessionsOfUser(tx: Tx, userId: number): Promise<void> {
  await tx.db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/** Whether the user's creation was logged as made through POST /users (audit extra_data created_via_api). */
export async function wasCreatedViaApi(tx: Tx, realmId: number, userId: number): Promise<boolean> {
  const row = await tx.db
    .selectFrom("audit_log")
    .select("extra_data")
    .where("realm_id", "=", realmId)
    .where("modified_user_id", "=", userId)
    .where("event_type", "=", "user_created")
    .executeTakeFirst();
  if (!row?.extra_data) return false;
  const data = typeof row.extra_data === "string" ? (JSON.parse(row.extra_data) as Record<string, unknown>) : (row.extra_data as Record<string, unknown>);
  return data.created_via_api === true;
}
