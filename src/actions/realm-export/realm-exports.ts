/**
 * Data exports from the API (Zulip's export-realm, get-realm-exports, get-realm-export-consents;
 * FL 304, 449, 295, 430): an administrator asks for an export; the request is recorded and
 * answered at once, and the archive is written in the background (run-export.ts) into upload
 * storage, from where the administrators download it by the `export_url` this module presents.
 * Bounds as Zulip's zerver/views/realm_export.py: 5 requests a week per realm, 250,000 messages
 * and 20 GiB of uploads (larger realms: `manage export-realm`); and one export at a time per
 * realm, and none running longer than an hour (archive-format.ts, docs/LIMITS.md).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, mustBeAdmin, mustBeOwner } from "../../errors.js";
import { settingOf } from "../../lib/user-settings.js";
import { isOwner, isRealmAdmin } from "../../policy/roles.js";
import { getRealmUploadSpaceUsed } from "../../store/attachments.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { countExportedMessages } from "../../store/realm-export-rows.js";
import type { ExportKind } from "../../store/realm-export-tables.js";
import {
  countExportsInProgress, countExportsSince, failRealmExports, getExportByPath, insertRealmExport, listRealmExports, lockRealmExports,
} from "../../store/realm-exports.js";
import { fileNotFound } from "../../access/attachments.js";
import type { ServedFile } from "../../uploads/serve.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listActiveUsers } from "../../store/users.js";
import {
  EXPORT_MAX_SECONDS, EXPORT_RATE_LIMIT, EXPORT_RATE_WINDOW_SECONDS, MAX_API_EXPORT_MESSAGES, MAX_API_EXPORT_UPLOAD_BYTES,
} from "./archive-format.js";
import { privateDataUserIds } from "./write-archive.js";
import { EXPORT_KEY_PREFIX, present, publishRealmExports, type RealmExportObject } from "./present-exports.js";
import { startRealmExport } from "./run-export.js";

function checkAdmin(user: UserRow): void {
  if (!isRealmAdmin(user)) throw mustBeAdmin();
}

/** Exports whose job has run longer than EXPORT_MAX_SECONDS died with their process, or are stuck: failed. */
async function failStaleExports(deps: AppDeps, tx: Tx, realmId: number): Promise<boolean> {
  const now = deps.clock.now();
  return (await failRealmExports(tx, realmId, now, "the export did not finish in time", { before: now - EXPORT_MAX_SECONDS })) > 0;
}

export async function listExports(deps: AppDeps, realm: RealmRow, user: UserRow): Promise<RealmExportObject[]> {
  checkAdmin(user);
  return transaction(deps.store, async (tx) => {
    if (await failStaleExports(deps, tx, realm.id)) await publishRealmExports(deps, tx, realm);
    return (await listRealmExports(tx, realm.id)).map((row) => present(deps, realm, row));
  });
}

/** Zulip's check_export_with_consent_is_usable / check_public_export_is_usable, and the FL 449 owner flag. */
async function checkKindUsable(deps: AppDeps, realm: RealmRow, user: UserRow, kind: ExportKind): Promise<void> {
  const owners = (await listActiveUsers(readTx(deps.store), realm.id)).filter((u) => isOwner(u) && !u.is_bot);
  const support = deps.config.mailFrom;
  if (kind === "full_with_consent" && !owners.some((u) => settingOf(u.settings, "allow_private_data_export") === true)) {
    throw new ApiError(`Make sure at least one Organization Owner is consenting to the export or contact ${support} for help.`);
  }
  // Only an owner who hides their address from everyone (visibility 4, "nobody") leaves administrators unable to reach one.
  if (kind === "public" && !owners.some((u) => settingOf(u.settings, "email_address_visibility") !== 4)) {
    throw new ApiError(`Make sure at least one Organization Owner allows other Administrators to see their email address or contact ${support} for help`);
  }
  if (kind === "full_without_consent") {
    if (!isOwner(user)) throw mustBeOwner();
    if (!realmOwnerFullContentAccess(realm)) {
      throw new ApiError(`Full exports without member consent need the organization's owner_full_content_access setting; contact ${support} for help.`);
    }
  }
}

/** Zulip's Realm.owner_full_content_access (FL 438): set by the server's operator only (`manage set-owner-full-content-access`). */
export function realmOwnerFullContentAccess(realm: Pick<RealmRow, "settings">): boolean {
  return (JSON.parse(realm.settings) as Record<string, unknown>).owner_full_content_access === true;
}

async function checkSize(deps: AppDeps, realm: RealmRow, kind: ExportKind): Promise<void> {
  const tx = readTx(deps.store);
  const privateUserIds = await privateDataUserIds(deps.store, realm.id, kind);
  const scope = { realmId: realm.id, dialect: deps.store.dialect, kind, privateUserIds };
  const messages = await countExportedMessages(tx, scope);
  if (messages > MAX_API_EXPORT_MESSAGES || (await getRealmUploadSpaceUsed(tx, realm.id)) > MAX_API_EXPORT_UPLOAD_BYTES) {
    throw new ApiError(`Please request a manual export from ${deps.config.mailFrom}.`);
  }
}

/** POST /export/realm: records the request and starts the job once it is committed; answers its id. */
export async function checkCreateExport(deps: AppDeps, realm: RealmRow, user: UserRow, kind: ExportKind): Promise<number> {
  checkAdmin(user);
  await checkKindUsable(deps, realm, user, kind);
  await checkSize(deps, realm, kind);
  return transaction(deps.store, async (tx) => {
    await lockRealmExports(tx, realm.id);
    const now = deps.clock.now();
    await failStaleExports(deps, tx, realm.id);
    if ((await countExportsSince(tx, realm.id, now - EXPORT_RATE_WINDOW_SECONDS)) >= EXPORT_RATE_LIMIT) throw new ApiError("Exceeded rate limit.");
    if ((await countExportsInProgress(tx, realm.id)) > 0) throw new ApiError("An export of this organization is already in progress.");
    const id = await insertRealmExport(tx, { realm_id: realm.id, acting_user_id: user.id, export_type: kind, date_requested: now });
    await publishRealmExports(deps, tx, realm);
    tx.onCommit(() => startRealmExport(deps, realm.id, id));
    return id;
  });
}

/** GET /export/realm/consents: every active human's consent and email visibility (FL 295, 430). */
export async function listExportConsents(deps: AppDeps, realm: RealmRow, user: UserRow) {
  checkAdmin(user);
  const users = await listActiveUsers(readTx(deps.store), realm.id);
  return users
    .filter((u) => !u.is_bot)
    .map((u) => ({
      user_id: u.id,
      consented: settingOf(u.settings, "allow_private_data_export") === true,
      email_address_visibility: Number(settingOf(u.settings, "email_address_visibility")),
    }));
}

/**
 * A finished export's archive, for the administrators of its realm only: the URL's random segment
 * is not the only guard. Anything else is the same 404, so the URL tells nothing to others.
 */
export async function getDownloadableExport(deps: AppDeps, user: UserRow, realmIdSegment: string, rest: string): Promise<ServedFile> {
  if (!isRealmAdmin(user) || realmIdSegment !== String(user.realm_id)) throw fileNotFound();
  const row = await getExportByPath(readTx(deps.store), user.realm_id, `${EXPORT_KEY_PREFIX}${realmIdSegment}/${rest}`);
  if (!row || row.path_id === null) throw fileNotFound();
  return { path_id: row.path_id, size: row.size ?? 0, content_type: "application/gzip", file_name: row.path_id.split("/").at(-1) as string };
}
