/**
 * Keeping a user in the system group of their role (zulip-facts section g): a direct member of
 * role:owners, role:administrators, role:moderators, role:members or (guests) role:everyone, and
 * a member past the realm's waiting period also of role:fullmembers.
 */
import { ROLE, ROLE_SYSTEM_GROUP } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import { addGroupMembers, getSystemGroups, removeGroupMembers } from "../../store/groups.js";
import type { RealmRow } from "../../store/types.js";

const DAY = 86400;

/** Moves the user from the groups of `oldRole` (null for a new user) to those of `newRole`. */
export async function setRoleGroups(
  tx: Tx,
  realm: RealmRow,
  user: { id: number; date_joined: number },
  oldRole: number | null,
  newRole: number,
  now: number,
): Promise<void> {
  const groups = await getSystemGroups(tx, realm.id);
  const idOf = (name: string) => groups.find((g) => g.name === name)?.id;
  const fullMembers = idOf("role:fullmembers");
  if (oldRole !== null) {
    const old = idOf(ROLE_SYSTEM_GROUP[oldRole]);
    if (old !== undefined) await removeGroupMembers(tx, old, [user.id]);
    if (fullMembers !== undefined) await removeGroupMembers(tx, fullMembers, [user.id]);
  }
  const target = idOf(ROLE_SYSTEM_GROUP[newRole]);
  if (target !== undefined) await addGroupMembers(tx, target, [user.id]);
  const pastWaitingPeriod = now - user.date_joined >= realm.waiting_period_threshold * DAY;
  if (newRole === ROLE.MEMBER && pastWaitingPeriod && fullMembers !== undefined) {
    await addGroupMembers(tx, fullMembers, [user.id]);
  }
}
