/**
 * Zulip's coarse checks on who may call an endpoint at all: human_users_only (no bots) and
 * require_member_or_admin (neither guests nor bots).
 */
import { ApiError } from "../errors.js";
import { isGuest } from "../policy/roles.js";
import type { UserRow } from "../store/types.js";

export const botsNotAccepted = () => new ApiError("This endpoint does not accept bot requests.");

export function checkHumanCaller(user: UserRow): void {
  if (user.is_bot) throw botsNotAccepted();
}

export function checkMemberOrAdmin(user: UserRow): void {
  checkHumanCaller(user);
  if (isGuest(user)) throw new ApiError("Not allowed for guest users");
}
