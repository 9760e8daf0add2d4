/**
 * A proof that nothing in a store has changed since an earlier moment, so that anything read and
 * checked then is still current.
 *
 * SQLite, without reading any table: the *change stamp* pairs SQLite's `PRAGMA data_version`
 * (changes whenever another connection — another Parley process, a `manage` command, the sqlite3
 * shell — commits) with `total_changes()` (every row this connection's INSERT, UPDATE and DELETE
 * statements touched, triggers included, committed or not). If both are as they were, no row of
 * any table has changed since. Together they cost about 6 µs of SQLite; the version check they
 * replace costs a statement through Kysely (25–35 µs with the driver's per-call work, issue 21).
 *
 * PostgreSQL: the snapshot of a statement (`pg_current_snapshot()`: xmin, xmax and the transaction
 * ids then in progress). A transaction that writes gets an id; when it commits (or aborts) it
 * leaves the in-progress list, and one that got its id after the snapshot is at or above xmax, so
 * two equal snapshots prove that no writing transaction of the cluster ended in between. Commits of
 * other sessions leave no trace a client can read without a statement, so PostgreSQL gives no stamp
 * of its own (`changeStamp` is null there): the authentication statement, which every request runs
 * anyway, returns its snapshot too (auth-rows.ts), and a request's memos are checked against that
 * (issue 21: GET /users/me on PostgreSQL, three statements → one while nothing has changed).
 *
 * No stamp (null) for a transaction's own handle, and on SQLite while any transaction is open on
 * the connection (its changes may still roll back, and its read snapshot would hide other
 * connections' commits). Callers then check as before.
 *
 * The rule for callers: take the stamp *before* reading what it will vouch for, and *after* the
 * request it serves began (so that it covers whatever was committed before the request). A change
 * made in between moves the stamp, so what was read is filed under an older stamp than its own and
 * merely checked again next time; never the reverse.
 */
import type Database from "better-sqlite3";
import type { Tx } from "./db.js";
import type { SqliteConnection } from "./sqlite.js";
import { AccountsWatch } from "./accounts-watch.js";

export interface ChangeStamp {
  dataVersion: number;
  changes: number;
  /** SQLite: this connection's changes to account rows (accounts-watch.ts); none before the tables exist. */
  accounts?: number;
  /** PostgreSQL: the statement's snapshot as text (`xmin:xmax:xip,…`); SQLite: none. */
  snapshot?: string;
}

/** A PostgreSQL stamp: the snapshot a statement ran under, as `pg_current_snapshot()::text` gives it. */
export function snapshotStamp(snapshot: string): ChangeStamp {
  return { dataVersion: 0, changes: 0, snapshot };
}

interface Reader {
  /** Whether an earlier stamp may vouch for reads through this handle now. */
  usable(): boolean;
  read(): ChangeStamp | null;
  /** Whether stamps' `accounts` counts still mean what they say (SQLite). */
  accountsIntact?(): boolean;
}

class StampReader implements Reader {
  private readonly dataVersion: Database.Statement;
  private readonly accounts: AccountsWatch;

  constructor(private readonly conn: SqliteConnection) {
    this.dataVersion = conn.raw.prepare("PRAGMA data_version").pluck();
    this.accounts = new AccountsWatch(conn.raw);
  }

  accountsIntact(): boolean {
    return this.usable() && this.accounts.intact();
  }

  /** Whether a stamp means anything now: the connection is open and no transaction is. */
  usable(): boolean {
    return this.conn.raw.open && !this.conn.raw.inTransaction;
  }

  read(): ChangeStamp | null {
    if (!this.usable()) return null;
    return { dataVersion: this.dataVersion.get() as number, changes: this.conn.totalChanges(), accounts: this.accounts.current() };
  }
}

/**
 * PostgreSQL's root instance (a pool: every read through it is a statement of its own, never
 * inside a transaction): no stamp without a statement, but an earlier stamp taken after the
 * request began may vouch for its reads.
 */
const POOL_READER: Reader = { usable: () => true, read: () => null };

/** The store's root Kysely instance → its reader (transactions are not in it). */
const readers = new WeakMap<object, Reader>();

/** Called by openStore for a SQLite store's root Kysely instance and its connection. */
export function provideChangeStamps(db: object, conn: SqliteConnection): void {
  readers.set(db, new StampReader(conn));
}

/** Called by openStore for a PostgreSQL store's root Kysely instance. */
export function provideSnapshotStamps(db: object): void {
  readers.set(db, POOL_READER);
}

/** The stamp of the store behind `tx` now, or null when freshness cannot be proven this way. */
export function changeStamp(tx: Tx): ChangeStamp | null {
  return readers.get(tx.db)?.read() ?? null;
}

export function sameStamp(a: ChangeStamp | null | undefined, b: ChangeStamp | null): boolean {
  return !!a && !!b && a.dataVersion === b.dataVersion && a.changes === b.changes && a.snapshot === b.snapshot;
}

/**
 * Whether no `users` or `realms` row can have changed between two stamps of the store behind `tx`,
 * though other rows may have (SQLite: no other connection committed, and this one's account-row
 * count is unchanged; accounts-watch.ts). Authentication's memo uses it, so that a server busy
 * with messages still authenticates without a statement.
 */
export function sameAccounts(tx: Tx, a: ChangeStamp | null | undefined, b: ChangeStamp | null): boolean {
  if (sameStamp(a, b)) return true;
  if (!a || !b || a.accounts === undefined || a.accounts !== b.accounts || a.dataVersion !== b.dataVersion) return false;
  return readers.get(tx.db)?.accountsIntact?.() ?? false;
}

/** Entries a memo keeps before it starts again (one per user at most for the memos below). */
const MEMO_ENTRIES = 50_000;

/**
 * A per-key memo of reads that stay valid while the store's stamp is unchanged (SQLite, or on
 * PostgreSQL under the request's own authentication snapshot passed as `earlier`). On
 * PostgreSQL, in transactions, or after any change, `read()` runs as it would without it.
 * Values are shared between callers, who must not change them.
 */
export class StampMemo<K, V> {
  private readonly byStore = new WeakMap<object, Map<K, { stamp: ChangeStamp; value: V }>>();

  /**
   * `earlier`: a stamp the caller took earlier on the same store (before anything it vouches for was
   * read), e.g. its request's authentication stamp; by default one is taken now. An earlier stamp
   * answers as of that moment, and a value read after it is filed under it: older than the value,
   * so at worst read again. By default, the stamp the handle carries (`readTx(store, stamp)`).
   */
  async get(tx: Tx, key: K, read: () => Promise<V>, earlier: ChangeStamp | null | undefined = tx.stamp): Promise<V> {
    // An earlier stamp only while no transaction is open: what is read now may be uncommitted.
    const stamp = earlier && readers.get(tx.db)?.usable() ? earlier : changeStamp(tx);
    if (!stamp) return read();
    let entries = this.byStore.get(tx.db);
    if (!entries) {
      entries = new Map();
      this.byStore.set(tx.db, entries);
    }
    const hit = entries.get(key);
    if (hit && sameStamp(hit.stamp, stamp)) return hit.value;
    const value = await read();
    if (entries.size >= MEMO_ENTRIES) entries.clear();
    entries.set(key, { stamp, value });
    return value;
  }
}
