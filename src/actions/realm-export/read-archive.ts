/**
 * Opening an export archive for import: unpacked by node-tar into a staging directory (which
 * refuses absolute paths, `..` and links out of it), keeping only the archive's own entries and
 * refusing more than MAX_IMPORT_UNPACKED_BYTES; then its manifest checked; then each table read
 * back one line at a time.
 */
import { createReadStream, existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { createInterface } from "node:readline";
import { ApiError } from "../../errors.js";
import { LATEST_MIGRATION } from "../../store/migrate.js";
import type { Row } from "../../store/realm-export-rows.js";
import {
  ARCHIVE_FORMAT, ARCHIVE_VERSION, EXPORT_KINDS, MANIFEST_NAME, MAX_IMPORT_LINE_BYTES, MAX_IMPORT_UNPACKED_BYTES, TABLES_DIR, UPLOADS_DIR,
  type ArchiveManifest,
} from "./archive-format.js";

const ENTRY = new RegExp(`^(?:${MANIFEST_NAME}|${TABLES_DIR}/[a-z_]+\\.jsonl|${UPLOADS_DIR}/.+)$`);

export async function unpackArchive(file: string, staging: string): Promise<ArchiveManifest> {
  if (!existsSync(file)) throw new ApiError(`no file ${file}`);
  let unpacked = 0;
  let tooLarge = false;
  try {
    const { extract } = await import("tar"); // loaded on use, as in write-archive.ts
    await extract({
      file,
      cwd: staging,
      strict: true,
      filter: (path, entry) => {
        const size = "size" in entry ? Number(entry.size ?? 0) : 0;
        unpacked += size;
        if (unpacked > MAX_IMPORT_UNPACKED_BYTES) tooLarge = true;
        const kind = "type" in entry ? entry.type : "File";
        return !tooLarge && (kind === "Directory" || (kind === "File" && ENTRY.test(path.replace(/^\.\//, "").replace(/\/$/, ""))));
      },
    });
  } catch (e) {
    throw new ApiError(`not a readable export archive: ${(e as Error).message}`);
  }
  if (tooLarge) throw new ApiError(`the archive unpacks to more than ${MAX_IMPORT_UNPACKED_BYTES} bytes`);
  return readManifest(staging);
}

function readManifest(staging: string): ArchiveManifest {
  const path = join(staging, MANIFEST_NAME);
  if (!existsSync(path)) throw new ApiError("not a Parley realm export: no manifest.json");
  let manifest: ArchiveManifest;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8")) as ArchiveManifest;
  } catch {
    throw new ApiError("not a Parley realm export: manifest.json is not JSON");
  }
  if (manifest?.format !== ARCHIVE_FORMAT) throw new ApiError("not a Parley realm export");
  if (manifest.version !== ARCHIVE_VERSION) throw new ApiError(`export format version ${manifest.version} is not supported (this Parley reads version ${ARCHIVE_VERSION})`);
  if (typeof manifest.migration !== "string" || manifest.migration > LATEST_MIGRATION) {
    throw new ApiError(`the export was made by a newer Parley (schema ${manifest.migration}); upgrade before importing it`);
  }
  if (!EXPORT_KINDS.includes(manifest.export_type) || typeof manifest.tables !== "object" || !manifest.realm || !Number.isInteger(manifest.realm.id)) {
    throw new ApiError("the export's manifest.json is incomplete");
  }
  return manifest;
}

/** The rows of one table's file, one at a time (none when the archive has no such file). */
export async function* tableRows(staging: string, table: string): AsyncGenerator<Row> {
  const path = join(staging, TABLES_DIR, `${table}.jsonl`);
  if (!existsSync(path)) return;
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    if (line === "") continue;
    if (line.length > MAX_IMPORT_LINE_BYTES) throw new ApiError(`${table}.jsonl line ${n} is longer than ${MAX_IMPORT_LINE_BYTES} bytes`);
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new ApiError(`${table}.jsonl line ${n} is not JSON`);
    }
    if (row === null || typeof row !== "object" || Array.isArray(row)) throw new ApiError(`${table}.jsonl line ${n} is not a row`);
    yield row as Row;
  }
}

/** The storage keys of the archive's files (paths under uploads/, with `/` separators). */
export function uploadKeys(staging: string): string[] {
  const root = join(staging, UPLOADS_DIR);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join("/"));
}
