/**
 * Deactivating an organization (Zulip's `manage.py deactivate_realm`, do_deactivate_realm): the
 * realm is marked deactivated, so every API key and login of it is refused ("This organization
 * has been deactivated"); browser sessions end; everyone with an event queue gets the realm
 * `deactivated` event, which flushes their long-poll so the client notices at once.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { transaction } from "../../store/db.js";
import { insertAuditLog, updateRealm } from "../../store/realms.js";
import { deleteSessionsOfRealm } from "../../store/sessions.js";
import type { RealmRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";

export async function deactivateRealm(deps: AppDeps, realm: RealmRow): Promise<void> {
  if (realm.deactivated) throw new ApiError("The organization is already deactivated.");
  await transaction(deps.store, async (tx) => {
    await updateRealm(tx, realm.id, { deactivated: true });
    await deleteSessionsOfRealm(tx, realm.id);
    await insertAuditLog(tx, { realm_id: realm.id, event_type: "realm_deactivated", event_time: deps.clock.now(), acting_user_id: null });
    publishOnCommit(tx, deps.events, { type: "realm", op: "deactivated", realm_id: realm.id }, await listActiveUserIds(tx, realm.id));
  });
}
