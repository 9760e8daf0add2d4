/**
 * `manage export-realm` and `manage import-realm` (issue 18, item 6; the archive format is
 * docs/EXPORT-FORMAT.md). Spread into manage.ts's COMMANDS; each prints one JSON line.
 * - export-realm --realm S [--output FILE] [--consent | --public-only]: like Zulip's
 *   `manage.py export`, everything by default (a full export without consent, as only the
 *   server's operator may make); `--consent` keeps private data of consenting users only,
 *   `--public-only` no private data at all.
 * - import-realm FILE [--subdomain S]: into a new realm (the export's subdomain by default), on
 *   whichever store DATABASE_URL names.
 * - set-owner-full-content-access --realm S --enable|--disable: Zulip's command of that name, the
 *   realm flag (FL 438) that full exports without member consent from the API need.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Config } from "../config.js";
import { systemClock } from "../deps.js";
import { ApiError } from "../errors.js";
import { importRealmArchive } from "../actions/realm-export/import-archive.js";
import { writeRealmArchive } from "../actions/realm-export/write-archive.js";
import { withRealmSetting } from "../lib/realm-settings.js";
import { readTx, transaction, type Store } from "../store/db.js";
import type { ExportKind } from "../store/realm-export-tables.js";
import { getRealmBySubdomain, updateRealm } from "../store/realms.js";

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
const OWNER_ACCESS_USAGE = "manage set-owner-full-content-access --realm S --enable|--disable";

function exportKind(v: Record<string, string | undefined>): ExportKind {
  if (v.consent && v["public-only"]) throw new ApiError("--consent and --public-only exclude each other");
  if (v["public-only"]) return "public";
  return v.consent ? "full_with_consent" : "full_without_consent";
}

async function realmNamed(store: Store, subdomain: string | undefined) {
  if (subdomain === undefined) throw new ApiError("missing --realm (the subdomain; \"\" for the root realm)");
  const realm = await getRealmBySubdomain(readTx(store), subdomain.toLowerCase());
  if (!realm) throw new ApiError(`no realm with subdomain '${subdomain}'`);
  return realm;
}

export async function runSetOwnerFullContentAccess(store: Store, v: Record<string, string | undefined>) {
  if (Boolean(v.enable) === Boolean(v.disable)) throw new ApiError("give exactly one of --enable and --disable");
  const realm = await realmNamed(store, v.realm);
  const value = Boolean(v.enable);
  await transaction(store, (tx) => updateRealm(tx, realm.id, { settings: withRealmSetting(realm, "owner_full_content_access", value) }));
  return { realm_id: realm.id, owner_full_content_access: value };
}

export async function runExportRealm(store: Store, config: Config, v: Record<string, string | undefined>) {
  const kind = exportKind(v);
  const realm = await realmNamed(store, v.realm);
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
  "set-owner-full-content-access": {
    options: { realm: STRING, enable: FLAG, disable: FLAG, help: FLAG },
    usage: OWNER_ACCESS_USAGE,
    run: withHelp(OWNER_ACCESS_USAGE, (store, v) => runSetOwnerFullContentAccess(store, v)),
  },
};
