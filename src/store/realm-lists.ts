/**
 * Realm-wide lists that every POST /register reads in full — the realm's users, its group
 * memberships, its channels' subscribers — kept in memory per process and checked against their
 * realm's versions (migration 0008) with one small indexed read. At 5,000 users and 500 channels
 * these reads were 35 ms of a 60 ms register, and they change far less often than clients
 * register (issue 8, S8; docs/PERFORMANCE.md). Any writer — this process, another, `manage`,
 * hand-typed SQL — bumps the versions through triggers, so the next read sees the change.
 *
 * The cache belongs to the Kysely instance the read ran on, like auth-rows.ts: a transaction gets
 * its own, dropped with it, so nothing read inside a transaction that later rolls back outlives it
 * (its version numbers would be reused by the next committed change). Versions are read before the
 * list, so a list is never older than the versions it is filed under. Callers share the values
 * and must not change them.
 *
 * A transaction may still use the list kept for the store's root instance when the versions it
 * reads itself equal that list's: no change, committed or its own, has touched those tables since
 * (issue 21: every send reads the recipients' rows from the user list inside its transaction, and
 * re-reading 5,000 users there cost more than the rest of the send). Such a list is committed
 * data, so nothing uncommitted leaks out. A list a transaction read goes to the root only once the
 * transaction has committed: by then its versions are committed ones, never to be reused.
 *
 * On SQLite the versions themselves are read again only once the store's change stamp has moved
 * (change-stamp.ts): until then no row has changed anywhere, so neither have they.
 */
import { StampMemo } from "./change-stamp.js";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";

export type RealmListKind = "realm_users" | "realm_groups" | "realm_subscriptions";
const KINDS: readonly RealmListKind[] = ["realm_users", "realm_groups", "realm_subscriptions"];

const realmVersions = prepared<{ realmId: number }, { table_name: string; version: number }>((db, arg) =>
  db.selectFrom("row_versions").select(["table_name", "version"]).where("table_name", "in", [...KINDS]).where("row_id", "=", arg("realmId")),
);

interface Entry {
  versions: string;
  value: unknown;
}

const caches = new WeakMap<object, Map<string, Entry>>();
const versionsMemo = new StampMemo<number, Array<{ table_name: string; version: number }>>();

/**
 * `read()`'s result for this realm, from memory while none of `kinds` has changed in the realm
 * since it was read. `name` identifies the list (one entry per name and realm).
 */
function cacheOf(db: object): Map<string, Entry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

export async function realmList<T>(tx: Tx, realmId: number, name: string, kinds: readonly RealmListKind[], read: () => Promise<T>): Promise<T> {
  const rows = await versionsMemo.get(tx, realmId, () => realmVersions(tx, { realmId }));
  // A realm whose rows have not changed since the migration has no version yet: 0.
  const versions = kinds.map((k) => Number(rows.find((r) => r.table_name === k)?.version ?? 0)).join(":");
  const cache = cacheOf(tx.db);
  const key = `${name}:${realmId}`;
  const hit = cache.get(key);
  if (hit && hit.versions === versions) return hit.value as T;
  const committed = tx.root ? cacheOf(tx.root).get(key) : undefined;
  if (committed && committed.versions === versions) return committed.value as T;
  const value = await read();
  cache.set(key, { versions, value });
  // Once the transaction commits, what it read is committed data under committed versions: the
  // root may keep it for the transactions and reads after it (never if it rolls back).
  const root = tx.root;
  if (root) tx.onCommit(() => cacheOf(root).set(key, { versions, value }));
  return value;
}
