/**
 * `manage convert --to URL [--from URL]` (issue 18, item 5): moves the deployment's database to
 * another store, SQLite ⇄ PostgreSQL (store/convert.ts), for the day one box on SQLite becomes
 * several on PostgreSQL, or back. The source defaults to DATABASE_URL; both are migrated to this
 * version first; the target must hold no organization. No server may run on either meanwhile
 * (their store locks). Uploads stay where they are: point the new deployment at the same
 * UPLOADS_DIR (or S3 bucket).
 */
import type { Config } from "../../config.js";
import { ApiError } from "../../errors.js";
import { copyStore, storeHasData } from "../../store/convert.js";
import { openStore, type Store } from "../../store/db.js";
import { checkIntegrity } from "../../store/integrity.js";
import { LATEST_MIGRATION, migrateToLatest } from "../../store/migrate.js";
import { takeStoreLock } from "../../store/server-lock.js";
import { withoutPassword } from "../../startup/checks.js";
import { STRING, required, type Command } from "../command-spec.js";

/** Copies every row of `source` into `target` (migrated here), then checks the result's integrity. */
export async function convertInto(source: Store, target: Store, opts: { requireEmpty: boolean }) {
  await migrateToLatest(source);
  await migrateToLatest(target);
  if (opts.requireEmpty && (await storeHasData(target))) {
    throw new ApiError("the target database already holds an organization; convert into an empty database (or restore a backup over it)");
  }
  const copied = await copyStore(source, target);
  const problems = await checkIntegrity(target);
  if (problems.length > 0) throw new ApiError(`the converted database fails its integrity check: ${problems.join("; ")}`);
  return copied;
}

export async function runConvert(store: Store, v: Record<string, string | undefined>, config: Config) {
  const to = required(v, ["to"]).to;
  const from = v.from ?? config.databaseUrl;
  if (from === to) throw new ApiError("--from and --to name the same database");
  const source = v.from === undefined ? store : openStore(from);
  const target = openStore(to);
  const locks = [];
  try {
    locks.push(await takeStoreLock(source, "exclusive"), await takeStoreLock(target, "exclusive"));
    const copied = await convertInto(source, target, { requireEmpty: true });
    return { from: withoutPassword(from), to: withoutPassword(to), from_dialect: source.dialect, to_dialect: target.dialect, migration: LATEST_MIGRATION, ...copied };
  } finally {
    for (const lock of locks) await lock.release();
    await target.close();
    if (source !== store) await source.close();
  }
}

export const STORE_COMMANDS: Record<string, Command> = {
  convert: {
    summary: "Copies the whole database into another, empty one: SQLite ⇄ PostgreSQL. Stop the servers first.",
    options: { from: STRING, to: STRING },
    flags: { to: "the target's URL (sqlite:PATH or postgres://…), an empty database", from: "the source's URL (default: DATABASE_URL)" },
    migrate: false,
    run: runConvert,
  },
};
