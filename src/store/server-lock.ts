/**
 * Who is using the store (issue 18, item 5): every server process holds a *shared* lock on its
 * database for as long as it runs; `manage restore` and `manage convert` take the same lock
 * *exclusively*, so they refuse to run under a live server (a restore under a running server lost
 * a message and reused its id), and a server refuses to start while one of them runs.
 * Both locks end with the process that holds them, so a killed server never leaves one behind:
 * - PostgreSQL: a session-level advisory lock, keyed by the schema, on a connection of its own.
 * - SQLite file: a read transaction held open on a small sibling file, `<database>-server-lock`
 *   (POSIX file locks, which SQLite uses, are released by the kernel when the process exits).
 *   Its own file, in rollback-journal mode, because a WAL database's readers take no lock a
 *   writer could detect. An in-memory database has nobody else to protect from: no lock.
 */
import Database from "better-sqlite3";
import type pg from "pg";
import { errorFields, logLine } from "../lib/log.js";
import { loadOnFirstUse } from "../lib/load-on-first-use.js";
import type { Store } from "./db.js";

const pgDriver = loadOnFirstUse<typeof pg>("pg");

/** The advisory lock's first key: "PRLY" (the second is the schema's hash). */
const ADVISORY_CLASS = 0x50524c59;
/** How long a server waits before retaking its lock after PostgreSQL dropped the connection. */
const RETAKE_DELAY_MS = 5_000;

export type LockMode = "shared" | "exclusive";

/** The lock is held by others in the conflicting mode; the message says who and what to do. */
export class StoreInUse extends Error {}

export interface HeldLock {
  release(): Promise<void>;
}

const inUse = (mode: LockMode) =>
  new StoreInUse(
    mode === "exclusive"
      ? "a Parley server is using this database; stop every server process using it (systemctl stop 'parley@*'), then run this again"
      : "a manage restore or convert is running on this database; start the server once it has finished",
  );

/** Takes the store's lock in `mode` without waiting; throws StoreInUse when it is held in the other mode. */
export async function takeStoreLock(store: Store, mode: LockMode): Promise<HeldLock> {
  if (store.dialect === "postgres") return takePostgresLock(store.url, mode);
  const file = store.sqlite && !store.sqlite.raw.memory ? store.sqlite.raw.name : null;
  return file ? takeSqliteLock(`${file}-server-lock`, mode) : { release: async () => undefined };
}

function takeSqliteLock(path: string, mode: LockMode): HeldLock {
  const db = new Database(path, { timeout: 0 });
  try {
    db.pragma("journal_mode = DELETE");
    if (!db.prepare("SELECT name FROM sqlite_master WHERE name = 'held'").get()) db.exec("CREATE TABLE IF NOT EXISTS held (x)");
    if (mode === "exclusive") db.exec("BEGIN EXCLUSIVE");
    else {
      db.exec("BEGIN");
      db.prepare("SELECT count(*) FROM held").get();
    }
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === "SQLITE_BUSY") throw inUse(mode);
    throw err;
  }
  return {
    release: async () => {
      if (db.inTransaction) db.exec("ROLLBACK");
      db.close();
    },
  };
}

async function takePostgresLock(url: string, mode: LockMode): Promise<HeldLock> {
  const connect = async (): Promise<pg.Client> => {
    const client = new (pgDriver().Client)({ connectionString: url, application_name: mode === "shared" ? "parley-server" : "parley-manage" });
    await client.connect();
    const fn = mode === "shared" ? "pg_try_advisory_lock_shared" : "pg_try_advisory_lock";
    const { rows } = await client.query(`SELECT ${fn}($1, hashtext(current_schema())) AS ok`, [ADVISORY_CLASS]);
    if (!rows[0].ok) {
      await client.end();
      throw inUse(mode);
    }
    return client;
  };
  let client = await connect();
  let released = false;
  let retry: NodeJS.Timeout | undefined;
  // A server whose lock connection drops (PostgreSQL restarted) takes the lock again once it can,
  // so a restore cannot start under it unnoticed for long; a manage command just fails its run.
  const watch = (c: pg.Client) =>
    c.on("error", (err) => {
      if (released || mode === "exclusive") return;
      logLine("warn", "the server lock's PostgreSQL connection was lost; taking the lock again", { err: errorFields(err) });
      const again = () => {
        retry = setTimeout(() => {
          connect().then(async (fresh) => {
            if (released) return fresh.end();
            client = fresh;
            watch(fresh);
          }, again);
        }, RETAKE_DELAY_MS);
        retry.unref();
      };
      again();
    });
  watch(client);
  return {
    release: async () => {
      released = true;
      clearTimeout(retry);
      await client.end().catch(() => undefined);
    },
  };
}
