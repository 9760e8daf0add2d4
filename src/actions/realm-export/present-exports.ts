/**
 * Export records as Zulip's API shows them (its RealmExport object, FL 449: export_type a string),
 * and the realm_export event that carries them all to the realm's administrators whenever one
 * changes (Zulip's notify_realm_export).
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { realmUrl } from "../../lib/realm-url.js";
import type { Tx } from "../../store/db.js";
import { EXPORT_STATUS, listRealmExports, type RealmExportRow } from "../../store/realm-exports.js";
import type { RealmRow } from "../../store/types.js";
import { listActiveAdminIds } from "../../store/users.js";

/** Zulip's RealmExport object (FL 449: export_type as a string). */
export interface RealmExportObject {
  id: number;
  acting_user_id: number;
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  export_url: string | null;
  pending: boolean;
  export_type: string;
}

/** Where exports are stored, and the URL path that serves them (http/export-routes.ts). */
export const EXPORT_KEY_PREFIX = "exports/";
export const EXPORT_URL_PREFIX = "/user_avatars/";

export function present(deps: AppDeps, realm: RealmRow, row: RealmExportRow): RealmExportObject {
  const done = row.status === EXPORT_STATUS.SUCCEEDED && row.path_id !== null;
  return {
    id: row.id,
    acting_user_id: row.acting_user_id ?? 0,
    export_time: row.date_requested,
    deleted_timestamp: row.date_deleted,
    failed_timestamp: row.date_failed,
    export_url: done ? `${realmUrl(deps.config.externalHost, realm.string_id)}${EXPORT_URL_PREFIX}${row.path_id}` : null,
    pending: row.status === EXPORT_STATUS.REQUESTED || row.status === EXPORT_STATUS.STARTED,
    export_type: row.export_type,
  };
}

/** The realm_export event: every export of the realm, to its administrators (Zulip's notify_realm_export). */
export async function publishRealmExports(deps: AppDeps, tx: Tx, realm: RealmRow): Promise<void> {
  const exports = (await listRealmExports(tx, realm.id)).map((row) => present(deps, realm, row));
  publishOnCommit(tx, deps.events, { type: "realm_export", exports }, await listActiveAdminIds(tx, realm.id));
}

