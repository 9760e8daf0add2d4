/**
 * Fetch + authorize another account by id or email (Zulip's access_user_by_id/email): unknown ids
 * and ids of other realms read "No such user"; bots and deactivated accounts only where allowed;
 * administrative access needs canAdminUser.
 */
import { ApiError, invalidUser } from "../errors.js";
import { canSeeDeliveryEmail } from "../policy/email-visibility.js";
import { canAdminUser } from "../policy/users.js";
import type { Tx } from "../store/db.js";
import type { UserRow } from "../store/types.js";
import { getUserByApiEmail, getUserByDeliveryEmail, getUserById } from "../store/users.js";

export interface UserAccessOptions {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  /** The caller means to change the account, not just read it. */
  forAdmin: boolean;
}

export const userDeactivatedError = () => new ApiError("User is deactivated");

function checkAccess(actor: UserRow, target: UserRow | undefined, opts: UserAccessOptions): UserRow {
  if (!target) throw invalidUser();
  if (target.is_bot && !opts.allowBots) throw invalidUser();
  if (!target.is_active && !opts.allowDeactivated) throw userDeactivatedError();
  if (opts.forAdmin && !canAdminUser(actor, target)) throw new ApiError("Insufficient permission");
  return target;
}

export async function accessUserById(tx: Tx, actor: UserRow, userId: number, opts: UserAccessOptions): Promise<UserRow> {
  return checkAccess(actor, await getUserById(tx, actor.realm_id, userId), opts);
}

/**
 * By API email; the real address works too when the caller may see it (so it reveals nothing
 * the caller could not already read).
 */
export async function accessUserByEmail(tx: Tx, actor: UserRow, email: string, opts: UserAccessOptions): Promise<UserRow> {
  let target = await getUserByApiEmail(tx, actor.realm_id, email);
  if (!target) {
    const byDelivery = await getUserByDeliveryEmail(tx, actor.realm_id, email);
    if (byDelivery && canSeeDeliveryEmail(actor, byDelivery)) target = byDelivery;
  }
  return checkAccess(actor, target, opts);
}

/**
 * A user id written in a path segment, or null when the segment is not one. Digit strings past
 * 2^53 are ids of nobody (as a number they would lose digits, or read 1e+300: found by fuzzing).
 */
export function userIdFromSegment(key: string): number | null {
  if (!/^\d+$/.test(key)) return null;
  const id = Number(key);
  return Number.isSafeInteger(id) ? id : 0;
}

/** A path segment that is either a user id or an email (`/users/{user_id}` and `/users/{email}`). */
export async function accessUserByIdOrEmail(tx: Tx, actor: UserRow, key: string, opts: UserAccessOptions): Promise<UserRow> {
  const id = userIdFromSegment(key);
  if (id !== null) return accessUserById(tx, actor, id, opts);
  return accessUserByEmail(tx, actor, key, opts);
}
