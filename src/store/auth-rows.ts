/**
 * The user and realm rows behind an API key, for every authenticated request. Reading both rows
 * whole costs about 60 µs on SQLite (the realm row alone has 46 columns), more than the rest of a
 * small request; so each process keeps the rows it has read and asks the database only whether
 * they are still current: one indexed read of the key's user id and the two rows' versions, which
 * triggers bump on every insert, update and delete (migration 0006). A changed version means the
 * row is read again. Whoever made the change — this process, another Parley process, a `manage`
 * command, SQL typed by hand — the next request sees it: deactivation, a regenerated key, a role
 * or realm setting take effect at once. The rows handed out are copies, so a caller that changes
 * its copy cannot change what the next request gets.
 *
 * On SQLite even that read is skipped while no users or realms row has changed since this key was
 * last checked, in this process or any other (change-stamp.ts `sameAccounts`, accounts-watch.ts),
 * so the rows checked then are still current (issue 21: about a fifth of a small request's CPU;
 * writes to other tables, such as a message sent, no longer bring the statement back). On
 * PostgreSQL the same statement returns its snapshot, the request's stamp there.
 */
import { sql } from "kysely";
import { changeStamp, sameAccounts, snapshotStamp, type ChangeStamp } from "./change-stamp.js";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { RealmRow, UserRow } from "./types.js";

interface Versions {
  user_id: number;
  realm_id: number;
  /** NULL until the row's first change after migration 0006 (its rows start without versions). */
  user_version: number | null;
  realm_version: number | null;
  /** PostgreSQL only (versionsWithSnapshot). */
  snapshot?: string;
}

/**
 * The key's user id, realm id and the two rows' versions. Scalar subqueries rather than LEFT
 * JOINs: SQLite runs this shape in a third of the time (7 µs against 23 µs on the benchmark
 * machine). `withSnapshot` (PostgreSQL): also the statement's snapshot (change-stamp.ts), so the
 * request's memos are checked against it instead of each running a statement of its own.
 */
const versionsQuery = (withSnapshot: boolean) =>
  prepared<{ apiKey: string }, Versions>((db, arg) =>
    db
      .selectFrom("users")
      .select((eb) => [
        "users.id as user_id",
        "users.realm_id as realm_id",
        eb.selectFrom("row_versions").select("version").where("table_name", "=", "users").whereRef("row_id", "=", "users.id").as("user_version"),
        eb.selectFrom("row_versions").select("version").where("table_name", "=", "realms").whereRef("row_id", "=", "users.realm_id").as("realm_version"),
        ...(withSnapshot ? [sql<string>`pg_current_snapshot()::text`.as("snapshot")] : []),
      ])
      .where("users.api_key", "=", arg("apiKey")),
  );
const versionsByApiKey = versionsQuery(false);
const versionsWithSnapshot = versionsQuery(true);

const userById = prepared<{ id: number }, UserRow>((db, arg) => db.selectFrom("users").selectAll().where("id", "=", arg("id")));
const realmById = prepared<{ id: number }, RealmRow>((db, arg) => db.selectFrom("realms").selectAll().where("id", "=", arg("id")));

interface Versioned<T> {
  version: number;
  row: T;
}

/** A key's rows as checked at a change stamp. */
interface Checked {
  stamp: ChangeStamp;
  user: UserRow;
  realm: RealmRow;
}

/**
 * Keys remembered with their stamp before the map starts again: one per account is the most a
 * store needs (a replaced key lingers until then, and is checked like any other when used).
 */
const CHECKED_KEYS = 50_000;

/** Rows of one store, by id. Bounded by the store's users and realms (one entry each at most). */
interface RowCache {
  users: Map<number, Versioned<UserRow>>;
  realms: Map<number, Versioned<RealmRow>>;
  byKey: Map<string, Checked>;
}

/**
 * One cache per store handle (its Kysely instance): ids mean different rows in different stores,
 * and tests open many. A WeakMap lets a closed store's cache go with it.
 */
const caches = new WeakMap<object, RowCache>();

function cacheOf(tx: Tx): RowCache {
  let cache = caches.get(tx.db);
  if (!cache) {
    cache = { users: new Map(), realms: new Map(), byKey: new Map() };
    caches.set(tx.db, cache);
  }
  return cache;
}

/**
 * The cached row when its version is `version`, else the row read now, remembered under `version`.
 * The version is read before the row, so a row changed in between is remembered under an older
 * version than its own and simply read again next time: never a stale row under a current version.
 */
async function current<T>(entries: Map<number, Versioned<T>>, id: number, version: number, read: () => Promise<T[]>): Promise<T | undefined> {
  const hit = entries.get(id);
  if (hit && hit.version === version) return hit.row;
  const [row] = await read();
  if (row === undefined) entries.delete(id);
  else entries.set(id, { version, row });
  return row;
}

/**
 * The account owning an API key, with its realm, for authentication (any realm). `stamp` is the
 * change stamp the rows were checked at (null where there is none): memos read later for the same
 * request may be checked against it instead of taking a stamp of their own (change-stamp.ts).
 */
export async function getUserAndRealmByApiKey(tx: Tx, apiKey: string): Promise<{ user: UserRow; realm: RealmRow; stamp: ChangeStamp | null } | undefined> {
  const cache = cacheOf(tx);
  // Taken before the versions are read (change-stamp.ts): a change in between moves the stamp.
  const stamp = changeStamp(tx);
  const checked = cache.byKey.get(apiKey);
  // Messages and other rows may have changed since: only account rows matter here.
  if (checked && sameAccounts(tx, checked.stamp, stamp)) return { user: { ...checked.user }, realm: { ...checked.realm }, stamp };
  // A transaction's handle has `root`: its snapshot could include its own uncommitted writes.
  const pooled = tx.dialect === "postgres" && !tx.root;
  const [v] = pooled ? await versionsWithSnapshot(tx, { apiKey }) : await versionsByApiKey(tx, { apiKey });
  const user = v && (await current(cache.users, v.user_id, Number(v.user_version ?? 0), () => userById(tx, { id: v.user_id })));
  const realm = v && (await current(cache.realms, v.realm_id, Number(v.realm_version ?? 0), () => realmById(tx, { id: v.realm_id })));
  if (!user || !realm) {
    cache.byKey.delete(apiKey);
    return undefined;
  }
  if (stamp) {
    if (cache.byKey.size >= CHECKED_KEYS) cache.byKey.clear();
    cache.byKey.set(apiKey, { stamp, user, realm });
  }
  const taken = pooled && v.snapshot ? snapshotStamp(v.snapshot) : stamp;
  return { user: { ...user }, realm: { ...realm }, stamp: taken };
}
