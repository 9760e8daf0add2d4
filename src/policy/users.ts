/** Pure predicates about administering other accounts (Zulip's can_admin_user and the owner rules). */
import type { UserRow } from "../store/types.js";
import { ROLE, isOwner, isRealmAdmin } from "./roles.js";

type Actor = Pick<UserRow, "id" | "role">;

/** Administrators may administer anyone; a bot's owner may administer that bot. */
export function canAdminUser(actor: Actor, target: Pick<UserRow, "bot_owner_id">): boolean {
  return isRealmAdmin(actor) || target.bot_owner_id === actor.id;
}

/** Granting or taking away the owner role is for owners only (spec 4.11). */
export function roleChangeNeedsOwner(currentRole: number, newRole: number): boolean {
  return currentRole === ROLE.OWNER || newRole === ROLE.OWNER;
}

export function mayChangeRole(actor: Actor, currentRole: number, newRole: number): boolean {
  return roleChangeNeedsOwner(currentRole, newRole) ? isOwner(actor) : isRealmAdmin(actor);
}
