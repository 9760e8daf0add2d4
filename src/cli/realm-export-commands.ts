/**
 * `manage export-realm` and `manage import-realm` (issue 18, item 6; the archive format is
 * docs/EXPORT-FORMAT.md). Spread into manage.ts's COMMANDS; each prints one JSON line.
 * - export-realm --realm S [--output FILE] [--consent | --public-only]: like Zulip's
 *   `manage.py export`, everything by default (a full export without consent, as only the
 *   server's operator may make); `--consent` keeps private data of consenting users only,
 *   `--public-only` no private data at all.
 * - import-realm FILE [--subdomain S]: into a new realm (the export's subdomain by default), on
 *   whichever store DATABASE_URL names.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Config } from "../config.js";
import { systemClock } from "../deps.js";
import { ApiError } from "../errors.js";
import { importRealmArchive } from "../actions/realm-export/import-archive.js";
import { writeRealmArchive } from "../actions/realm-export/write-archive.js";
import { readTx, type Store } from "../store/db.js";
import type { ExportKind } from "../store/realm-export-tables.js";
import { getRealmBySubdomain } from "../store/realms.js";

const STRING = { type: "string" } as const;
const FLAG = { type: "boolean" } as const;

export interface RealmExportCommand {
  options: Record<string, typeof STRING | typeof FLAG>;
  positionals?: string[];
  usage: string;
  run: (store: Store, v: Record<string, string | undefined>, config: Config) => Promise<unknown>;
}

const EXPORT_USAGE = "manage export-realm --realm S [--output FILE] [--consent | --public-only]";
const IMPORT_USAGE = "manage import-realm FILE [--subdomain S]";

function exportKind(v: Record<string, string | undefined>): ExportKind {
  if (v.consent && v["public-only"]) throw new ApiError("--consent and --public-only exclude each other");
  if (v["public-only"]) return "public";
  return v.consent ? "full_with_consent" : "full_without_consent";
}

export async function runExportRealm(store: Store, config: Config, v: Record<string, string | undefined>) {
  if (v.realm === undefined) throw new ApiError("missing --realm (the subdomain; \"\" for the root realm)");
  const kind = exportKind(v);
  const realm = await getRealmBySubdomain(readTx(store), v.realm.toLowerCase());
  if (!realm) throw new ApiError(`no realm with subdomain '${v.realm}'`);
  const now = systemClock.now();
  const file = resolve(v.output ?? `parley-export-${realm.string_id || "root"}-${now}.tar.gz`);
  if (existsSync(file)) throw new ApiError(`${file} already exists`);
  if (!existsSync(dirname(file))) throw new ApiError(`no directory ${dirname(file)}`);
  const { manifest } = await writeRealmArchive(store, config, realm, kind, now, file);
  return { export: file, realm_id: realm.id, export_type: kind, tables: manifest.tables, upload_files: manifest.uploads.files, missing_upload_files: manifest.uploads.missing };
}

const withHelp = (usage: string, run: RealmExportCommand["run"]): RealmExportCommand["run"] => (store, v, config) =>
  v.help ? Promise.resolve({ usage }) : run(store, v, config);

export const REALM_EXPORT_COMMANDS: Record<string, RealmExportCommand> = {
  "export-realm": {
    options: { realm: STRING, output: STRING, consent: FLAG, "public-only": FLAG, help: FLAG },
    usage: EXPORT_USAGE,
    run: withHelp(EXPORT_USAGE, (store, v, config) => runExportRealm(store, config, v)),
  },
  "import-realm": {
    options: { subdomain: STRING, help: FLAG },
    positionals: ["file"],
    usage: IMPORT_USAGE,
    run: withHelp(IMPORT_USAGE, (store, v, config) => importRealmArchive(store, config, resolve(v.file as string), { subdomain: v.subdomain })),
  },
};
