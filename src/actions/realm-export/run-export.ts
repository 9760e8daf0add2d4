/**
 * The background job behind POST /export/realm: started once the request is committed, never on
 * the request's own path. It claims the export (only one process does), writes the archive to a
 * temporary file in batches (write-archive.ts), streams it into upload storage under a random
 * path, and records the outcome, telling the administrators (realm_export event) either way.
 */
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppDeps } from "../../deps.js";
import { errorFields, logLine } from "../../lib/log.js";
import { randomToken } from "../../lib/secrets.js";
import { readTx, transaction } from "../../store/db.js";
import type { ExportKind } from "../../store/realm-export-tables.js";
import { claimRealmExport, failRealmExports, finishRealmExport, getRealmExport } from "../../store/realm-exports.js";
import { getRealmById } from "../../store/realms.js";
import { uploadStorage } from "../../uploads/storage.js";
import { EXPORT_MAX_SECONDS } from "./archive-format.js";
import { EXPORT_KEY_PREFIX, publishRealmExports } from "./present-exports.js";
import { writeRealmArchive } from "./write-archive.js";

const ARCHIVE_TYPE = "application/gzip";

/** Export jobs this process is running (after their requests committed). */
const running = new Set<Promise<void>>();

/** Starts the job of a committed export request, off the request's path. */
export function startRealmExport(deps: AppDeps, realmId: number, exportId: number): void {
  const job: Promise<void> = runRealmExport(deps, realmId, exportId)
    .catch((err: unknown) => logLine("error", "realm export job stopped", { realm_id: realmId, export_id: exportId, ...errorFields(err) }))
    .finally(() => running.delete(job));
  running.add(job);
}

/** Resolves once no export job of this process is running (tests that compare the store, shutdown). */
export async function realmExportsIdle(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

export async function runRealmExport(deps: AppDeps, realmId: number, exportId: number): Promise<void> {
  const started = deps.clock.now();
  if (!(await transaction(deps.store, (tx) => claimRealmExport(tx, exportId, started)))) return;
  const staging = mkdtempSync(join(tmpdir(), "parley-export-job-"));
  const storage = uploadStorage(deps.config);
  let pathId: string | null = null;
  try {
    const tx = readTx(deps.store);
    const [realm, row] = [await getRealmById(tx, realmId), await getRealmExport(tx, exportId)];
    if (!realm || !row) throw new Error("the realm or its export record is gone");
    const name = `parley-export-${realm.string_id || "root"}-${started}.tar.gz`;
    const file = join(staging, name);
    await writeRealmArchive(deps.store, deps.config, realm, row.export_type as ExportKind, started, file, Date.now() + EXPORT_MAX_SECONDS * 1000);
    pathId = `${EXPORT_KEY_PREFIX}${realm.id}/${randomToken(18)}/${name}`;
    const { size } = await storage.put(pathId, createReadStream(file), ARCHIVE_TYPE);
    await transaction(deps.store, async (tx) => {
      await finishRealmExport(tx, exportId, deps.clock.now(), pathId as string, size ?? statSync(file).size);
      await publishRealmExports(deps, tx, realm);
    });
    logLine("info", "realm export finished", { realm_id: realmId, export_id: exportId, bytes: size });
  } catch (err) {
    logLine("error", "realm export failed", { realm_id: realmId, export_id: exportId, ...errorFields(err) });
    if (pathId) await storage.delete(pathId).catch(() => undefined);
    await transaction(deps.store, async (tx) => {
      await failRealmExports(tx, realmId, deps.clock.now(), (err as Error).message, { id: exportId });
      const realm = await getRealmById(tx, realmId);
      if (realm) await publishRealmExports(deps, tx, realm);
    }).catch((e: unknown) => logLine("error", "could not record a failed realm export", { export_id: exportId, ...errorFields(e) }));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
