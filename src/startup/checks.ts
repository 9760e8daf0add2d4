/**
 * What start-up verifies before it creates anything (issue 18, item 7): the port can be bound, the
 * directories the server writes to are writable, PostgreSQL and Redis answer. Each failure is a
 * ConfigError naming the setting and the fix, which main.ts prints as one log line before exiting
 * non-zero — instead of a stack trace, or of a server that starts and then fails every upload.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { ConfigError, type Config } from "../config.js";
import { newRedisClient } from "../lib/redis-keys.js";
import { sql } from "kysely";
import { openStore, pingStore, type Store } from "../store/db.js";

const DEPENDENCY_TIMEOUT_MS = 5_000;

/** A URL fit for a log line: its password replaced. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

/** The one-line reason of a failed listen, naming PORT / HOST. */
export function listenError(err: unknown, config: Config): ConfigError {
  const code = (err as { code?: string }).code;
  const where = `${config.host}:${config.port}`;
  if (code === "EADDRINUSE") return new ConfigError("PORT", `${where} is already in use by another process; stop that process or choose another PORT`);
  if (code === "EACCES") return new ConfigError("PORT", `not allowed to listen on ${where} (ports below 1024 need privileges); choose a PORT above 1023 and put a proxy in front`);
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return new ConfigError("HOST", `${config.host} is not an address of this machine; set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all)`);
  return new ConfigError("PORT", `cannot listen on ${where}: ${(err as Error).message}`);
}

/**
 * Binds HOST:PORT for a moment, so a busy port stops the start before the store is touched or an
 * organization created. (Under systemd socket activation the socket is already there.)
 */
export async function checkPortFree(config: Config): Promise<void> {
  if (config.listenFd !== null) return;
  await new Promise<void>((done, fail) => {
    const probe = createServer();
    probe.once("error", (err) => fail(listenError(err, config)));
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () => probe.close(() => done()));
  });
}

/** Creates `dir` if needed and proves a file can be written in it. */
function checkWritableDir(setting: string, dir: string, what: string): void {
  const probe = join(dir, `.parley-write-test-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (err) {
    const reason = (err as { code?: string }).code ?? (err as Error).message;
    throw new ConfigError(setting, `${what} ${dir} is not a writable directory (${reason}); create it writable by the user running Parley, or point ${setting} elsewhere`);
  }
}

/** The runtime directory, the uploads directory (unless uploads go to S3) and SQLite's directory. */
export function checkWritablePaths(config: Config): void {
  checkWritableDir("PARLEY_VAR_DIR", config.varDir, "the runtime directory");
  if (!config.s3) checkWritableDir("UPLOADS_DIR", config.uploadsDir, "the uploads directory");
  const sqlitePath = config.databaseUrl.startsWith("sqlite:") ? config.databaseUrl.slice("sqlite:".length) : null;
  if (sqlitePath && sqlitePath !== ":memory:") checkWritableDir("DATABASE_URL", dirname(resolve(sqlitePath)), "the SQLite database's directory");
}

/** Opens the store and waits for it to answer a query (PostgreSQL: reachable, role and database exist). */
export async function openAnsweringStore(config: Config, open: typeof openStore = openStore): Promise<Store> {
  let store: Store;
  try {
    store = open(config.databaseUrl, { backgroundCheckpoints: true, writeLockFirst: true });
  } catch (err) {
    throw new ConfigError("DATABASE_URL", `cannot open ${withoutPassword(config.databaseUrl)}: ${(err as Error).message}`);
  }
  try {
    await pingStore(store, DEPENDENCY_TIMEOUT_MS);
  } catch (err) {
    await store.close().catch(() => undefined);
    const hint =
      store.dialect === "postgres"
        ? "check that PostgreSQL is running and that DATABASE_URL names an existing role and database it accepts (README: PostgreSQL)"
        : "check the file's permissions, or point DATABASE_URL elsewhere";
    throw new ConfigError("DATABASE_URL", `${withoutPassword(config.databaseUrl)} does not answer (${(err as Error).message}); ${hint}`);
  }
  if (store.dialect === "postgres") {
    const { rows } = await sql<{ server_version_num: string; server_version: string }>`SELECT current_setting('server_version_num') AS server_version_num, current_setting('server_version') AS server_version`.execute(store.db);
    const tooOld = postgresVersionProblem(Number(rows[0]?.server_version_num), rows[0]?.server_version ?? "unknown");
    if (tooOld) {
      await store.close().catch(() => undefined);
      throw new ConfigError("DATABASE_URL", `${withoutPassword(config.databaseUrl)}: ${tooOld}`);
    }
  }
  return store;
}

/**
 * The oldest PostgreSQL Parley runs on: 13, for `pg_current_snapshot()`, which every authenticated
 * request's statement reads (store/auth-rows.ts, store/change-stamp.ts). 12 and older are past
 * their end of life.
 */
export const MIN_POSTGRES_VERSION_NUM = 130000;

/** Why a PostgreSQL server of this version cannot serve Parley, or null when it can. */
export function postgresVersionProblem(versionNum: number, version: string): string | null {
  if (Number.isFinite(versionNum) && versionNum >= MIN_POSTGRES_VERSION_NUM) return null;
  return `PostgreSQL ${version} is too old: Parley needs PostgreSQL 13 or later`;
}

/** One PING on a throw-away connection, before anything subscribes. */
export async function checkRedisAnswers(config: Config): Promise<void> {
  if (!config.redisUrl) return;
  const client = newRedisClient(config.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: DEPENDENCY_TIMEOUT_MS,
    commandTimeout: DEPENDENCY_TIMEOUT_MS,
  });
  let lastError: string | null = null;
  client.on("error", (err: Error) => (lastError = err.message));
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    const why = lastError ?? (err as Error).message;
    throw new ConfigError("REDIS_URL", `cannot reach Redis at ${withoutPassword(config.redisUrl)} (${why}); start Redis or fix REDIS_URL (unset it to run a single process without Redis)`);
  } finally {
    client.disconnect();
  }
}
