/**
 * `manage backup FILE` and `manage restore FILE` (issue 9, item 6; issue 18, item 5). A backup is
 * one tar archive, readable by its owner only: `manifest.json` (with the Parley version and the
 * migration level it was taken at), the database copy (store/backup.ts) and the uploads directory,
 * minus uploads still in progress. Restoring puts the database back at the backup's own level,
 * then migrates it to this version's, checks its integrity, and only then swaps the uploads
 * directory, so a failed restore leaves the files as they were. A backup from a newer version
 * (a migration this one does not know) is refused. Uploads kept in S3 are not in the archive
 * (the bucket has its own versioning and replication). Restore refuses to run while a server
 * uses the store (store/server-lock.ts), and holds the lock so none starts meanwhile.
 */
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import type { Config } from "../config.js";
import type { Clock } from "../deps.js";
import { ApiError } from "../errors.js";
import { randomToken } from "../lib/secrets.js";
import { backupStore, restoreStore } from "../store/backup.js";
import type { Dialect, Store } from "../store/db.js";
import { checkIntegrity } from "../store/integrity.js";
import { isKnownMigration, migrateToLatest, migrationLevel } from "../store/migrate.js";
import { takeStoreLock, type HeldLock } from "../store/server-lock.js";
import { PARLEY_VERSION } from "../version.js";

const run = promisify(execFile);
const FORMAT = "parley-backup";
/** Version 2 added parley_version and migration; version 1 archives still restore. */
const VERSION = 2;
const READABLE_VERSIONS = [1, 2];
const MANIFEST = "manifest.json";
const DATABASE_FILE: Record<Dialect, string> = { sqlite: "database.sqlite3", postgres: "database.pgdump" };

interface Manifest {
  format: typeof FORMAT;
  version: number;
  dialect: Dialect;
  created_at: number;
  /** The Parley version that wrote the archive and the newest migration its database had (version 2). */
  parley_version?: string;
  migration?: string | null;
  database: string;
  /** The uploads directory's name inside the archive; null when none was included. */
  uploads: string | null;
}

export interface BackupSummary {
  backup: string;
  dialect: Dialect;
  parley_version: string;
  migration: string | null;
  archive_bytes: number;
  /** Files of the uploads directory included; null when there is none (or uploads live in S3). */
  upload_files: number | null;
}

export interface RestoreSummary {
  restored: string;
  dialect: Dialect;
  /** The backup's migration level, and the migrations applied on top of it to reach this version's. */
  from_migration: string | null;
  migrated: string[];
  upload_files: number | null;
}

async function tar(args: string[]): Promise<void> {
  try {
    await run("tar", args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new ApiError(`tar failed: ${(err.stderr || err.message).trim()}`);
  }
}

/** Unfinished uploads (tus chunks under `.tus`, partial writes) are transient: never archived. */
const TUS_DIR = ".tus";
const PARTIAL_SUFFIX = ".partial";

function countUploads(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && !entry.name.endsWith(PARTIAL_SUFFIX) && relative(dir, entry.parentPath).split(sep)[0] !== TUS_DIR,
  ).length;
}

export async function runBackup(store: Store, config: Config, clock: Clock, file: string): Promise<BackupSummary> {
  const archive = resolve(file);
  if (existsSync(archive)) throw new ApiError(`${file} already exists`);
  if (!existsSync(dirname(archive))) throw new ApiError(`no directory ${dirname(archive)}`);
  const staging = mkdtempSync(join(dirname(archive), ".parley-backup-"));
  const partial = `${archive}.partial`;
  try {
    const database = DATABASE_FILE[store.dialect];
    await backupStore(store, join(staging, database));
    const withUploads = !config.s3 && existsSync(config.uploadsDir);
    const uploads = withUploads ? basename(config.uploadsDir) : null;
    const migration = await migrationLevel(store);
    const manifest: Manifest = { format: FORMAT, version: VERSION, dialect: store.dialect, created_at: clock.now(), parley_version: PARLEY_VERSION, migration, database, uploads };
    writeFileSync(join(staging, MANIFEST), JSON.stringify(manifest));
    // Options before operands: GNU tar ignores an --exclude that follows the names it filters.
    const excludes = uploads ? [`--exclude=${uploads}/${TUS_DIR}`, `--exclude=*${PARTIAL_SUFFIX}`] : [];
    const uploadOperands = uploads ? ["-C", dirname(config.uploadsDir), uploads] : [];
    await tar(["-cf", partial, ...excludes, "-C", staging, MANIFEST, database, ...uploadOperands]);
    // Password hashes and API keys are inside: the operator's alone, whatever the umask (issue 16, F12).
    chmodSync(partial, 0o600);
    renameSync(partial, archive);
    return { backup: archive, dialect: store.dialect, parley_version: PARLEY_VERSION, migration, archive_bytes: statSync(archive).size, upload_files: uploads ? countUploads(config.uploadsDir) : null };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

function readManifest(staging: string, dialect: Dialect): Manifest {
  const path = join(staging, MANIFEST);
  if (!existsSync(path)) throw new ApiError("not a Parley backup: no manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Manifest;
  if (manifest.format !== FORMAT || !READABLE_VERSIONS.includes(manifest.version)) throw new ApiError("not a Parley backup of a known version");
  if (manifest.migration && !isKnownMigration(manifest.migration)) {
    throw new ApiError(
      `this backup was made by Parley ${manifest.parley_version ?? "?"} at migration ${manifest.migration}, newer than this Parley ${PARLEY_VERSION} knows; restore it with that version or a later one`,
    );
  }
  if (manifest.dialect !== dialect) {
    throw new ApiError(`this backup holds a ${manifest.dialect} database, but DATABASE_URL names a ${dialect} one`);
  }
  return manifest;
}

/** Puts `replacement` (or an empty directory) where `dir` was, removing the old contents. */
function swapDirectory(dir: string, replacement: string | null): void {
  const old = `${dir}.replaced-${randomToken(6)}`;
  if (existsSync(dir)) renameSync(dir, old);
  if (replacement) renameSync(replacement, dir);
  else mkdirSync(dir, { recursive: true });
  rmSync(old, { recursive: true, force: true });
}

export async function runRestore(store: Store, config: Config, file: string): Promise<RestoreSummary> {
  const archive = resolve(file);
  if (!existsSync(archive)) throw new ApiError(`no file ${file}`);
  // Extracted next to the uploads directory, so the new one moves into place by a rename.
  mkdirSync(dirname(config.uploadsDir), { recursive: true });
  const staging = mkdtempSync(join(dirname(config.uploadsDir), ".parley-restore-"));
  let lock: HeldLock | null = null;
  try {
    await tar(["-xf", archive, "-C", staging]);
    const manifest = readManifest(staging, store.dialect);
    // Taken once the archive proved readable, and held to the end so no server starts meanwhile.
    lock = await takeStoreLock(store, "exclusive");
    await restoreStore(store, join(staging, manifest.database));
    // The database is at the backup's level now; this version's migrations bring it up to date.
    const migrated = await migrateToLatest(store);
    const problems = await checkIntegrity(store);
    if (problems.length > 0) throw new ApiError(`the restored database fails its integrity check: ${problems.join("; ")}`);
    const summary = { restored: archive, dialect: store.dialect, from_migration: manifest.migration ?? null, migrated };
    if (config.s3) return { ...summary, upload_files: null };
    swapDirectory(config.uploadsDir, manifest.uploads ? join(staging, manifest.uploads) : null);
    return { ...summary, upload_files: countUploads(config.uploadsDir) };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    await lock?.release();
  }
}
