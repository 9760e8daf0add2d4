/**
 * Writes one realm's export archive (archive-format.ts, docs/EXPORT-FORMAT.md) without ever
 * holding a table in memory: each table is read in batches of EXPORT_BATCH_ROWS (table-batches.ts) and
 * appended to its JSON-lines file in a staging directory, yielding to the event loop between
 * batches (a server keeps answering while it exports); upload files are streamed from storage;
 * finally node-tar packs and gzips the directory, streaming it to the archive file.
 */
import { once } from "node:events";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, type WriteStream } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Config } from "../../config.js";
import { settingOf } from "../../lib/user-settings.js";
import { readTx, type Store } from "../../store/db.js";
import { LATEST_MIGRATION } from "../../store/migrate.js";
import type { Row } from "../../store/realm-export-rows.js";
import { EXPORT_TABLES, type ExportKind, type ScopeContext } from "../../store/realm-export-tables.js";
import type { RealmRow } from "../../store/types.js";
import { listUsers } from "../../store/users.js";
import { uploadStorage } from "../../uploads/storage.js";
import { thumbnailPathId } from "../../uploads/thumbnail-formats.js";
import { PARLEY_VERSION } from "../../version.js";
import { emojiPathId, emojiStillPathId } from "../realm/realm-emoji.js";
import { tableBatches } from "./table-batches.js";
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, MANIFEST_NAME, TABLES_DIR, UPLOADS_DIR, type ArchiveManifest } from "./archive-format.js";

/**
 * Bytes node-tar reads from a file at once (its default is 16 MiB). The gzip stream compresses
 * each chunk synchronously, so a 16 MiB table file held the event loop for over 100 ms; 256 KiB
 * chunks keep each step to a few milliseconds.
 */
const TAR_READ_BYTES = 256 * 1024;

export interface ArchiveSummary {
  file: string;
  manifest: ArchiveManifest;
}

/** Whose private data an export of this kind holds (Zulip's allow_private_data_export, FL 293). */
export async function privateDataUserIds(store: Store, realmId: number, kind: ExportKind): Promise<number[]> {
  if (kind === "public") return [];
  const users = await listUsers(readTx(store), realmId);
  return users.filter((u) => kind === "full_without_consent" || settingOf(u.settings, "allow_private_data_export") === true).map((u) => u.id);
}

/**
 * A file of the staging directory. Its errors surface in writeLine and closeStream (`once` rejects
 * on 'error'); the listener keeps an error that comes while nobody waits (an abandoned export)
 * from crashing the process.
 */
function openOutput(path: string): WriteStream {
  return createWriteStream(path).on("error", () => undefined);
}

async function writeLine(out: WriteStream, line: string): Promise<void> {
  if (out.errored) throw out.errored;
  if (!out.write(line + "\n")) await once(out, "drain");
}

async function closeStream(out: WriteStream): Promise<void> {
  if (out.errored) throw out.errored;
  out.end();
  await once(out, "finish");
}

/** Credentials never leave the server; passwords only with their owner's private data. */
function exportedUser(row: Row, privateIds: ReadonlySet<number>): Row {
  return { ...row, api_key: "", password_hash: privateIds.has(row.id as number) ? row.password_hash : null };
}

/** Storage keys of the files the exported rows name (attachments, their thumbnails, custom emoji). */
class FileCollector {
  readonly keys: string[] = [];
  private readonly attachmentPaths = new Map<number, string>();

  constructor(private readonly realmId: number) {}

  see(table: string, row: Row): void {
    if (table === "attachments") {
      this.attachmentPaths.set(row.id as number, row.path_id as string);
      this.keys.push(row.path_id as string);
    } else if (table === "image_attachments") {
      const path = this.attachmentPaths.get(row.attachment_id as number);
      const thumbnails = JSON.parse(row.thumbnails as string) as Array<{ name: string }>;
      if (path !== undefined) this.keys.push(...thumbnails.map((t) => thumbnailPathId(path, t.name)));
    } else if (table === "realm_emoji") {
      this.keys.push(emojiPathId(this.realmId, row.file_name as string));
      if (row.is_animated) this.keys.push(emojiStillPathId(this.realmId, row.file_name as string));
    }
  }
}

/** Throws once the export has run past its deadline (epoch milliseconds), so a stuck export ends. */
function checkDeadline(deadlineMs: number | undefined): void {
  if (deadlineMs !== undefined && Date.now() > deadlineMs) throw new Error("the export ran past its time limit");
}

async function writeTables(store: Store, scope: ScopeContext, staging: string, files: FileCollector, deadlineMs?: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const privateIds = new Set(scope.privateUserIds);
  mkdirSync(join(staging, TABLES_DIR));
  for (const table of EXPORT_TABLES) {
    const out = openOutput(join(staging, TABLES_DIR, `${table.name}.jsonl`));
    let count = 0;
    for await (const rows of tableBatches(store, table, scope)) {
      for (const row of rows) {
        files.see(table.name, row);
        await writeLine(out, JSON.stringify(table.name === "users" ? exportedUser(row, privateIds) : row));
      }
      count += rows.length;
      await yieldToEventLoop();
      checkDeadline(deadlineMs);
    }
    await closeStream(out);
    counts[table.name] = count;
  }
  return counts;
}

async function copyUploads(config: Config, keys: readonly string[], staging: string): Promise<ArchiveManifest["uploads"]> {
  const storage = uploadStorage(config);
  const summary = { files: 0, bytes: 0, missing: 0 };
  for (const key of new Set(keys)) {
    const body = await storage.get(key);
    if (!body) {
      summary.missing += 1;
      continue;
    }
    const dest = join(staging, UPLOADS_DIR, key);
    mkdirSync(dirname(dest), { recursive: true });
    const out = openOutput(dest);
    await pipeline(body, out);
    summary.files += 1;
    summary.bytes += out.bytesWritten;
  }
  return summary;
}

/**
 * Exports `realm` into a new archive at `file` (which must not exist). The staging directory is
 * removed whatever happens; a failure leaves no archive behind.
 */
export async function writeRealmArchive(
  store: Store,
  config: Config,
  realm: RealmRow,
  kind: ExportKind,
  createdAt: number,
  file: string,
  deadlineMs?: number,
): Promise<ArchiveSummary> {
  const staging = mkdtempSync(join(tmpdir(), "parley-export-"));
  try {
    const scope: ScopeContext = { realmId: realm.id, dialect: store.dialect, kind, privateUserIds: await privateDataUserIds(store, realm.id, kind) };
    const files = new FileCollector(realm.id);
    const tables = await writeTables(store, scope, staging, files, deadlineMs);
    mkdirSync(join(staging, UPLOADS_DIR));
    const uploads = await copyUploads(config, files.keys, staging);
    checkDeadline(deadlineMs);
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      parley_version: PARLEY_VERSION,
      migration: LATEST_MIGRATION,
      export_type: kind,
      created_at: createdAt,
      realm: { id: realm.id, string_id: realm.string_id, name: realm.name },
      tables,
      uploads,
    };
    const manifestOut = openOutput(join(staging, MANIFEST_NAME));
    await writeLine(manifestOut, JSON.stringify(manifest, null, 2));
    await closeStream(manifestOut);
    // tar is loaded when an export is written, not at every start-up (idle memory, bench S9).
    const { create: createTar } = await import("tar");
    await createTar({ gzip: true, file, cwd: staging, portable: true, maxReadSize: TAR_READ_BYTES }, [MANIFEST_NAME, TABLES_DIR, UPLOADS_DIR]);
    return { file, manifest };
  } catch (err) {
    rmSync(file, { force: true });
    throw err;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
