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
import { FLAG, STRING, type Command } from "./command-spec.js";

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

export const REALM_EXPORT_COMMANDS: Record<string, Command> = {
  "export-realm": {
    summary: "Writes one organization into a .tar.gz archive (docs/EXPORT-FORMAT.md): everything, or --consent / --public-only.",
    options: { realm: STRING, output: STRING, consent: FLAG, "public-only": FLAG },
    flags: {
      realm: "the organization's subdomain (\"\" for the root one)",
      output: "the archive to write (default parley-export-SUBDOMAIN-TIME.tar.gz here)",
      consent: "private data only of users who allowed it (allow_private_data_export)",
      "public-only": "no private data at all",
    },
    run: (store, v, config) => runExportRealm(store, config, v),
  },
  "import-realm": {
    summary: "Reads an export archive into a new organization (new ids and API keys), on DATABASE_URL's store.",
    options: { subdomain: STRING },
    flags: { subdomain: "the new organization's subdomain (default: the export's)" },
    positionals: ["file"],
    run: (store, v, config) => importRealmArchive(store, config, resolve(v.file as string), { subdomain: v.subdomain }),
  },
  "set-owner-full-content-access": {
    summary: "Lets owners export private data without member consent (Zulip's owner_full_content_access), or not.",
    options: { realm: STRING, enable: FLAG, disable: FLAG },
    run: (store, v) => runSetOwnerFullContentAccess(store, v),
  },
};
