/**
 * The realm_export_consent event (FL 312): administrators learn a user's consent to exports of
 * their private data when it changes, and when a user is created or reactivated (user events do
 * not carry the setting), so their consents list stays current.
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { settingOf } from "../../lib/user-settings.js";
import type { Tx } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";
import { listActiveAdminIds } from "../../store/users.js";

export async function publishExportConsent(deps: AppDeps, tx: Tx, user: UserRow, consented = settingOf(user.settings, "allow_private_data_export") === true): Promise<void> {
  if (user.is_bot) return;
  publishOnCommit(tx, deps.events, { type: "realm_export_consent", user_id: user.id, consented }, await listActiveAdminIds(tx, user.realm_id));
}
