/**
 * A user's first login (Zulip's FL 475): last_login is set, and for an account someone else made
 * through POST /users, or an imported stub, date_joined becomes the time the person actually
 * joined, which everyone who can access the user hears through a `realm_user` update. Later
 * logins change nothing here (Parley keeps no login history beyond the first).
 */
import type { AppDeps } from "../../deps.js";
import { isoTimestamp } from "../../present/present-user.js";
import { transaction } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";
import { getUserById, updateUser, wasCreatedViaApi } from "../../store/users.js";
import { publishUserUpdate } from "../users/user-events.js";

export async function doRecordFirstLogin(deps: AppDeps, user: UserRow): Promise<UserRow> {
  if (user.last_login !== null) return user;
  return transaction(deps.store, async (tx) => {
    const current = await getUserById(tx, user.realm_id, user.id);
    if (!current || current.last_login !== null) return current ?? user;
    const now = deps.clock.now();
    const provisional = current.is_imported_stub || (await wasCreatedViaApi(tx, current.realm_id, current.id));
    await updateUser(tx, current.id, provisional ? { last_login: now, date_joined: now } : { last_login: now });
    if (provisional) await publishUserUpdate(deps, tx, current.realm_id, { user_id: current.id, date_joined: isoTimestamp(now) });
    return { ...current, last_login: now, ...(provisional ? { date_joined: now } : {}) };
  });
}
