/**
 * `manage import-realm FILE [--subdomain S]`: reads an export archive back into a NEW realm, on
 * either store (so it also moves a realm from SQLite to PostgreSQL and back). Every table keeps
 * its rows, under ids shifted into ranges reserved for them (store/realm-export-rows.ts); the ids
 * values carry inside text and JSON move too (lib/export-id-remap.ts). API keys and channel email
 * tokens are new: credentials never travel. Rows are inserted in one transaction, files are put
 * into upload storage first and removed again if the transaction fails: nothing is half-imported.
 */
import { randomBytes } from "node:crypto";
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../config.js";
import { ApiError } from "../../errors.js";
import { rewriteContent, rewriteFragment, rewriteIdList, rewriteMemberKey, rewriteStorageKey, type IdLookup, type IdTable } from "../../lib/export-id-remap.js";
import { generateApiKey } from "../../lib/secrets.js";
import { readTx, transaction, type Store } from "../../store/db.js";
import { insertRows, reserveIds, setLaterRefs, subdomainTaken, type Row } from "../../store/realm-export-rows.js";
import { EXPORT_TABLES, type ExportTable, type ExportTableName } from "../../store/realm-export-tables.js";
import { uploadStorage } from "../../uploads/storage.js";
import { SUBDOMAIN_PATTERN } from "../realm/realms.js";
import { UPLOADS_DIR, type ArchiveManifest } from "./archive-format.js";
import { tableRows, unpackArchive, uploadKeys } from "./read-archive.js";

export interface ImportSummary {
  realm_id: number;
  subdomain: string;
  export_type: string;
  /** Rows inserted per table, and rows left out because what they pointed to was not exported. */
  tables: Record<string, number>;
  dropped: Record<string, number>;
  upload_files: number;
}

const INSERT_BATCH = 500;
/** Custom profile field type whose values are user ids (policy/profile-fields.ts FIELD_TYPE.USER). */
const USER_FIELD = 6;
const RECIPIENT_TABLES: Record<number, ExportTableName> = { 1: "users", 2: "channels", 3: "direct_message_groups" };

/** Old ids → new ids: each table's ids shifted into its reserved range. */
class IdShift {
  private readonly ids = new Map<string, Set<number>>();
  private readonly bases = new Map<string, { base: number; min: number }>();

  add(table: string, id: number): void {
    let set = this.ids.get(table);
    if (!set) this.ids.set(table, (set = new Set()));
    set.add(id);
  }

  async reserve(store: Store): Promise<void> {
    for (const [table, set] of this.ids) {
      let min = Infinity;
      let max = -Infinity;
      for (const id of set) [min, max] = [Math.min(min, id), Math.max(max, id)];
      this.bases.set(table, { base: await reserveIds(store, table as ExportTableName, max - min + 1), min });
    }
  }

  map(table: string, id: unknown): number | undefined {
    const range = this.bases.get(table);
    if (!range || typeof id !== "number" || !this.ids.get(table)?.has(id)) return undefined;
    return range.base + (id - range.min + 1);
  }

  readonly lookup: IdLookup = (table: IdTable, id: number) => this.map(table, id);
}

interface ImportContext {
  shift: IdShift;
  oldRealmId: number;
  newRealmId: number;
  subdomain: string;
  fieldTypes: Map<number, number>;
  later: Array<{ table: ExportTableName; id: number; values: Row }>;
}

const text = (v: unknown, c: ImportContext) => (typeof v === "string" ? rewriteContent(v, c.shift.lookup, c.oldRealmId, c.newRealmId) : v);

/** What a table's values carry beyond its id columns (module comment). */
function rewriteValues(table: ExportTableName, row: Row, old: Row, c: ImportContext): boolean {
  const lookup = c.shift.lookup;
  switch (table) {
    case "realms": {
      row.string_id = c.subdomain;
      const settings = JSON.parse(String(row.settings ?? "{}")) as Record<string, unknown>;
      for (const key of Object.keys(settings)) {
        if (/_(stream|channel)_id$/.test(key)) settings[key] = c.shift.map("channels", settings[key]) ?? settings[key];
      }
      row.settings = JSON.stringify(settings);
      return true;
    }
    case "users":
      row.api_key = generateApiKey();
      return true;
    case "direct_message_groups":
      row.member_key = rewriteMemberKey(String(row.member_key), lookup);
      return true;
    case "recipients": {
      const target = RECIPIENT_TABLES[old.type as number];
      row.type_id = target ? c.shift.map(target, old.type_id) : undefined;
      return row.type_id !== undefined;
    }
    case "channels":
      row.rendered_description = text(row.rendered_description, c);
      return true;
    case "messages":
    case "scheduled_messages":
      row.content = text(row.content, c);
      row.rendered_content = text(row.rendered_content, c);
      if (table === "scheduled_messages") row.to_user_ids = rewriteIdList(String(row.to_user_ids), lookup, "users");
      return true;
    case "message_edits":
      row.prev_content = text(row.prev_content, c);
      row.prev_rendered_content = text(row.prev_rendered_content, c);
      return true;
    case "reactions":
    case "user_status":
      if (row.reaction_type === "realm_emoji") row.emoji_code = String(c.shift.map("realm_emoji", Number(row.emoji_code)) ?? row.emoji_code);
      return true;
    case "custom_profile_fields":
      c.fieldTypes.set(old.id as number, old.field_type as number);
      return true;
    case "custom_profile_field_values":
      if (c.fieldTypes.get(old.field_id as number) === USER_FIELD) row.value = rewriteIdList(String(row.value), lookup, "users");
      return true;
    case "attachments":
      row.path_id = rewriteStorageKey(String(row.path_id), c.oldRealmId, c.newRealmId);
      return true;
    case "drafts":
      row.to = rewriteIdList(String(row.to), lookup, row.type === "stream" ? "channels" : "users");
      return true;
    case "navigation_views":
      row.fragment = rewriteFragment(String(row.fragment), lookup);
      return true;
    case "channel_email_addresses":
      row.email_token = randomBytes(16).toString("hex");
      return true;
    default:
      return true;
  }
}

/** The row as the new realm stores it, or null when something it needs was not exported. */
function importedRow(table: ExportTable, old: Row, c: ImportContext): Row | null {
  const row: Row = { ...old };
  if (table.hasId) row.id = c.shift.map(table.name, old.id);
  for (const [column, target] of Object.entries(table.refs ?? {})) {
    if (old[column] === null || old[column] === undefined) continue;
    row[column] = c.shift.map(target, old[column]);
    if (row[column] === undefined) return null;
  }
  for (const [column, target] of Object.entries(table.optionalRefs ?? {})) {
    if (old[column] !== null && old[column] !== undefined) row[column] = c.shift.map(target, old[column]) ?? null;
  }
  const later: Row = {};
  for (const [column, target] of Object.entries(table.later ?? {})) {
    const value = c.shift.map(target, old[column]);
    if (value !== undefined) later[column] = value;
    if (column in row) row[column] = null;
  }
  if (!rewriteValues(table.name, row, old, c)) return null;
  if (Object.keys(later).length > 0) c.later.push({ table: table.name, id: row.id as number, values: later });
  return row;
}

function checkSubdomain(raw: string): string {
  const subdomain = raw.trim().toLowerCase();
  if (!SUBDOMAIN_PATTERN.test(subdomain)) throw new ApiError(`invalid subdomain '${raw}'`);
  return subdomain;
}

async function collectIds(staging: string, manifest: ArchiveManifest): Promise<IdShift> {
  const shift = new IdShift();
  for (const table of EXPORT_TABLES) {
    if (!table.hasId || !(table.name in manifest.tables)) continue;
    for await (const row of tableRows(staging, table.name)) {
      if (!Number.isSafeInteger(row.id)) throw new ApiError(`${table.name}.jsonl holds a row without an integer id`);
      shift.add(table.name, row.id as number);
    }
  }
  return shift;
}

async function insertTables(store: Store, staging: string, manifest: ArchiveManifest, c: ImportContext): Promise<Pick<ImportSummary, "tables" | "dropped">> {
  const tables: Record<string, number> = {};
  const dropped: Record<string, number> = {};
  await transaction(store, async (tx) => {
    for (const table of EXPORT_TABLES) {
      if (!(table.name in manifest.tables)) continue;
      [tables[table.name], dropped[table.name]] = [0, 0];
      let batch: Row[] = [];
      const flush = async () => {
        await insertRows(tx, table.name, batch);
        tables[table.name] += batch.length;
        batch = [];
      };
      for await (const old of tableRows(staging, table.name)) {
        const row = importedRow(table, old, c);
        if (row === null) dropped[table.name] += 1;
        else batch.push(row);
        if (batch.length >= INSERT_BATCH) await flush();
      }
      await flush();
    }
    for (const { table, id, values } of c.later) await setLaterRefs(tx, table, id, values);
  });
  return { tables, dropped };
}

export async function importRealmArchive(store: Store, config: Config, file: string, opts: { subdomain?: string } = {}): Promise<ImportSummary> {
  const staging = mkdtempSync(join(tmpdir(), "parley-import-"));
  const stored: string[] = [];
  const storage = uploadStorage(config);
  try {
    const manifest = await unpackArchive(file, staging);
    const subdomain = checkSubdomain(opts.subdomain ?? manifest.realm.string_id);
    if (await subdomainTaken(readTx(store), subdomain)) throw new ApiError(`subdomain '${subdomain}' is already in use; choose another with --subdomain`);
    const shift = await collectIds(staging, manifest);
    await shift.reserve(store);
    const newRealmId = shift.map("realms", manifest.realm.id);
    if (newRealmId === undefined) throw new ApiError("the export holds no row for its realm");
    const c: ImportContext = { shift, oldRealmId: manifest.realm.id, newRealmId, subdomain, fieldTypes: new Map(), later: [] };
    for (const key of uploadKeys(staging)) {
      const target = rewriteStorageKey(key, c.oldRealmId, newRealmId);
      await storage.put(target, createReadStream(join(staging, UPLOADS_DIR, key)), "application/octet-stream");
      stored.push(target);
    }
    const { tables, dropped } = await insertTables(store, staging, manifest, c);
    return { realm_id: newRealmId, subdomain, export_type: manifest.export_type, tables, dropped, upload_files: stored.length };
  } catch (err) {
    for (const key of stored) await storage.delete(key).catch(() => undefined);
    throw err;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
