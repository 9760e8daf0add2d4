/** Checks shared by the user-group actions: who may call, and which users and subgroups are valid. */
import { groupDeactivated } from "../../access/user-groups.js";
import { ApiError } from "../../errors.js";
import { isGuest } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import type { RealmRow, UserGroupRow, UserRow } from "../../store/types.js";
import { getNamedGroupsByIds } from "../../store/user-groups.js";
import { getUsersByIds } from "../../store/users.js";

/** Zulip's user-group endpoints are closed to guests; bots may use them (spec 4.13, 4.20: FL 496). */
export function checkNotGuest(user: UserRow): void {
  if (isGuest(user)) throw new ApiError("Not allowed for guest users");
}

/** Users of the realm that are active (spec 4.20: deactivated users are refused); returns unique ids. */
export async function checkActiveUserIds(tx: Tx, realm: RealmRow, ids: readonly number[]): Promise<number[]> {
  const users = await getUsersByIds(tx, realm.id, ids);
  for (const id of ids) {
    const user = users.find((u) => u.id === id);
    if (!user) throw new ApiError(`Invalid user ID: ${id}`);
    if (!user.is_active) throw new ApiError(`User with ID ${id} is deactivated`);
  }
  return [...new Set(ids)];
}

/** Named, active groups of the realm, usable as subgroups. */
export async function checkSubgroups(tx: Tx, realm: RealmRow, ids: readonly number[]): Promise<UserGroupRow[]> {
  const groups = await getNamedGroupsByIds(tx, realm.id, ids);
  const missing = ids.find((id) => !groups.some((g) => g.id === id));
  if (missing !== undefined) throw new ApiError(`Invalid user group ID: ${missing}`);
  if (groups.some((g) => g.deactivated)) throw groupDeactivated();
  return groups;
}

export async function checkSubgroupIds(tx: Tx, realm: RealmRow, ids: readonly number[]): Promise<number[]> {
  return (await checkSubgroups(tx, realm, ids)).map((g) => g.id);
}
