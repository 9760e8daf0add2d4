/** SQL for data export records (migration 0015; Zulip's RealmExport). */
import { sql, type Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type RealmExportRow = Selectable<DB["realm_exports"]>;

/** Zulip's RealmExport statuses. */
export const EXPORT_STATUS = { REQUESTED: 1, STARTED: 2, SUCCEEDED: 3, FAILED: 4, DELETED: 5 } as const;
const IN_PROGRESS = [EXPORT_STATUS.REQUESTED, EXPORT_STATUS.STARTED];
/** Advisory lock class of export requests (one key per realm; other classes: store/attachments.ts). */
const EXPORT_REQUEST_LOCK = 7_015;

/** Serialises export requests of one realm until the transaction ends (SQLite's writes are serial already). */
export async function lockRealmExports(tx: Tx, realmId: number): Promise<void> {
  if (tx.dialect === "postgres") await sql`SELECT pg_advisory_xact_lock(${EXPORT_REQUEST_LOCK}, ${realmId})`.execute(tx.db);
}

export async function insertRealmExport(tx: Tx, row: { realm_id: number; acting_user_id: number | null; export_type: string; date_requested: number }): Promise<number> {
  const inserted = await tx.db
    .insertInto("realm_exports")
    .values({ ...row, status: EXPORT_STATUS.REQUESTED })
    .returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function listRealmExports(tx: Tx, realmId: number): Promise<RealmExportRow[]> {
  return tx.db.selectFrom("realm_exports").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

export async function getRealmExport(tx: Tx, id: number): Promise<RealmExportRow | undefined> {
  return tx.db.selectFrom("realm_exports").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The succeeded export stored under `pathId` (what the download route serves). */
export async function getExportByPath(tx: Tx, realmId: number, pathId: string): Promise<RealmExportRow | undefined> {
  return tx.db
    .selectFrom("realm_exports")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("path_id", "=", pathId)
    .where("status", "=", EXPORT_STATUS.SUCCEEDED)
    .executeTakeFirst();
}

/** Exports requested since `since` (Zulip's rate limit counts every request, whatever became of it). */
export async function countExportsSince(tx: Tx, realmId: number, since: number): Promise<number> {
  const row = await tx.db
    .selectFrom("realm_exports")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("date_requested", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countExportsInProgress(tx: Tx, realmId: number): Promise<number> {
  const row = await tx.db
    .selectFrom("realm_exports")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("status", "in", IN_PROGRESS)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Claims a requested export for this process: true only for the one caller that moved it to started. */
export async function claimRealmExport(tx: Tx, id: number, now: number): Promise<boolean> {
  const result = await tx.db
    .updateTable("realm_exports")
    .set({ status: EXPORT_STATUS.STARTED, date_started: now })
    .where("id", "=", id)
    .where("status", "=", EXPORT_STATUS.REQUESTED)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function finishRealmExport(tx: Tx, id: number, now: number, pathId: string, size: number): Promise<void> {
  await tx.db
    .updateTable("realm_exports")
    .set({ status: EXPORT_STATUS.SUCCEEDED, date_succeeded: now, path_id: pathId, size })
    .where("id", "=", id)
    .where("status", "=", EXPORT_STATUS.STARTED)
    .execute();
}

/** Marks in-progress exports failed: one (its job failed), or every one requested before `before` (stale). */
export async function failRealmExports(tx: Tx, realmId: number, now: number, failure: string, which: { id: number } | { before: number }): Promise<number> {
  let query = tx.db
    .updateTable("realm_exports")
    .set({ status: EXPORT_STATUS.FAILED, date_failed: now, failure })
    .where("realm_id", "=", realmId)
    .where("status", "in", IN_PROGRESS);
  query = "id" in which ? query.where("id", "=", which.id) : query.where("date_requested", "<", which.before);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
