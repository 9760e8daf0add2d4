/**
 * One audit-log entry about a user (Zulip's RealmAuditLog with modified_user): who did it, `null`
 * for the operator at the shell (manage), as Zulip's acting_user=None.
 */
import type { AppDeps } from "../../deps.js";
import type { Tx } from "../../store/db.js";
import { insertAuditLog } from "../../store/realms.js";
import type { UserRow } from "../../store/types.js";

export async function auditUserChange(
  deps: Pick<AppDeps, "clock">,
  tx: Tx,
  eventType: string,
  actor: Pick<UserRow, "id"> | null,
  user: Pick<UserRow, "id" | "realm_id">,
  extraData?: Record<string, unknown>,
): Promise<void> {
  await insertAuditLog(tx, {
    realm_id: user.realm_id,
    event_type: eventType,
    event_time: deps.clock.now(),
    acting_user_id: actor?.id ?? null,
    modified_user_id: user.id,
    ...(extraData ? { extra_data: extraData } : {}),
  });
}
