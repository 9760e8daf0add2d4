/**
 * The realm export archive (docs/EXPORT-FORMAT.md): a gzip-compressed tar holding
 * `manifest.json`, one `tables/{table}.jsonl` per exported table (one row per line, columns as
 * stored) and `uploads/{storage key}` for every exported file. Versioned: the importer refuses a
 * format or version it does not know, and a newer archive than its own migrations.
 */
import type { ExportKind } from "../../store/realm-export-tables.js";

export const ARCHIVE_FORMAT = "parley-realm-export";
export const ARCHIVE_VERSION = 1;
export const MANIFEST_NAME = "manifest.json";
export const TABLES_DIR = "tables";
export const UPLOADS_DIR = "uploads";

export const EXPORT_KINDS: readonly ExportKind[] = ["public", "full_with_consent", "full_without_consent"];

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** Parley's version and the last migration of the exporting server (the schema the rows follow). */
  parley_version: string;
  migration: string;
  export_type: ExportKind;
  created_at: number;
  realm: { id: number; string_id: string; name: string };
  /** Rows per exported table, in import order. */
  tables: Record<string, number>;
  /** Files under uploads/: how many, their bytes, and how many the storage no longer had. */
  uploads: { files: number; bytes: number; missing: number };
}

/** Rows read (and written) per batch: bounds an export's memory whatever the realm's size. */
export const EXPORT_BATCH_ROWS = 1000;

/**
 * Zulip's bounds on exports an administrator starts from the API (zerver/views/realm_export.py):
 * larger realms are exported by the operator (`manage export-realm`), which has no such bound.
 */
export const MAX_API_EXPORT_MESSAGES = 250_000;
export const MAX_API_EXPORT_UPLOAD_BYTES = 20 * 1024 ** 3;
/** At most this many exports requested per realm in EXPORT_RATE_WINDOW_SECONDS (Zulip: 5 a week). */
export const EXPORT_RATE_LIMIT = 5;
export const EXPORT_RATE_WINDOW_SECONDS = 7 * 24 * 60 * 60;
/** An export still running after this long is failed: its process died or it is stuck. */
export const EXPORT_MAX_SECONDS = 60 * 60;

/** Import bounds: the archive's unpacked size, and one table row (a line of JSON). */
export const MAX_IMPORT_UNPACKED_BYTES = 64 * 1024 ** 3;
export const MAX_IMPORT_LINE_BYTES = 64 * 1024 * 1024;
