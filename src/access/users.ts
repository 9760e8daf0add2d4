/**
 * Fetch + authorize another account by id or email (Zulip's access_user_by_id/email): unknown ids
 * and ids of other realms read "No such user"; bots and deactivated accounts only where allowed;
 * administrative access needs canAdminUser, and reading someone needs access to them under
 * can_access_all_users_group ("Insufficient permission", as Zulip's access_user_common says).
 *
 * Also who may access whom (policy/user-access.ts): loadUserAccess for a viewer, and
 * userIdsWhoCanAccess for the audience of events about a user.
 */
import { ApiError, invalidUser } from "../errors.js";
import { canSeeDeliveryEmail } from "../policy/email-visibility.js";
import { isGuest } from "../policy/roles.js";
import { canAccessUser, realmRestrictsUserAccess, viewerIsLimited, type AccessibleHumans } from "../policy/user-access.js";
import { canAdminUser } from "../policy/users.js";
import type { Tx } from "../store/db.js";
import type { UserRow } from "../store/types.js";
import {
  getAccessAllUsersGroupName,
  getActiveGuestIds,
  getActiveUsersByGuestness,
  getConversationPartnerIds,
  getSharedConversationPairs,
} from "../store/user-access.js";
import { getUserByApiEmail, getUserByDeliveryEmail, getUserById, listActiveUserIds } from "../store/users.js";

export interface UserAccessOptions {
  allowDeactivated?: boolean;
  allowBots?: boolean;
  /** The caller means to change the account, not just read it. */
  forAdmin: boolean;
}

export const userDeactivatedError = () => new ApiError("User is deactivated");

/** A viewer's access to other users (Zulip's check_can_access_user), loaded once per operation. */
export interface UserAccess {
  readonly viewerId: number;
  /** null: the viewer may access everyone; else the humans they may (themselves included). */
  readonly accessible: AccessibleHumans;
  canAccess(target: Pick<UserRow, "id" | "is_bot">): boolean;
}

const everyone = (viewerId: number): UserAccess => ({ viewerId, accessible: null, canAccess: () => true });

/** Whether the realm limits guests' access to users (Zulip's user_access_restricted_in_realm). */
export async function realmRestrictsAccess(tx: Tx, realmId: number): Promise<boolean> {
  return realmRestrictsUserAccess(await getAccessAllUsersGroupName(tx, realmId));
}

/** Whom `viewer` may access. Only guests can be limited, so nobody else costs a query. */
export async function loadUserAccess(tx: Tx, viewer: Pick<UserRow, "id" | "role" | "realm_id">): Promise<UserAccess> {
  if (!isGuest(viewer) || !viewerIsLimited(viewer, await getAccessAllUsersGroupName(tx, viewer.realm_id))) return everyone(viewer.id);
  const accessible = await getConversationPartnerIds(tx, viewer.id);
  accessible.add(viewer.id);
  return { viewerId: viewer.id, accessible, canAccess: (target) => canAccessUser(viewer.id, accessible, target) };
}

/**
 * Zulip's get_user_ids_who_can_access_user: the active accounts that may access `target` — all
 * of them unless the realm limits guests and `target` is a human; then the non-guests, the
 * target, and the guests who share a conversation with them. The audience of realm_user and
 * user_status events about `target` (FL 228).
 */
export async function userIdsWhoCanAccess(tx: Tx, target: Pick<UserRow, "id" | "realm_id" | "is_bot">): Promise<number[]> {
  if (target.is_bot || !(await realmRestrictsAccess(tx, target.realm_id))) return listActiveUserIds(tx, target.realm_id);
  const { guests, nonGuests } = await getActiveUsersByGuestness(tx, target.realm_id);
  // Asked from the target's side: its few conversations, not every guest's.
  const shared = (await getSharedConversationPairs(tx, [target.id], guests)).get(target.id) ?? new Set<number>();
  return [...new Set([...nonGuests, target.id, ...guests.filter((id) => shared.has(id))])];
}

/**
 * Splits `userIds` by whether each may access `target` (for events that name the target: a message's
 * sender, a reaction's user). Without a limit on access everyone is on the accessing side.
 */
export async function partitionByAccess(
  tx: Tx,
  target: Pick<UserRow, "id" | "realm_id" | "is_bot">,
  userIds: readonly number[],
): Promise<{ accessing: number[]; notAccessing: number[] }> {
  if (target.is_bot || !(await realmRestrictsAccess(tx, target.realm_id))) return { accessing: [...userIds], notAccessing: [] };
  // Only guests can be limited: ask just about them, and just about the target.
  const guests = await getActiveGuestIds(tx, target.realm_id, userIds);
  guests.delete(target.id);
  const shared = (await getSharedConversationPairs(tx, [target.id], [...guests])).get(target.id) ?? new Set<number>();
  const cannot = new Set([...guests].filter((id) => !shared.has(id)));
  return { accessing: userIds.filter((id) => !cannot.has(id)), notAccessing: userIds.filter((id) => cannot.has(id)) };
}

/**
 * Zulip's check_sender_can_access_recipients: a limited guest may not write to (or, in Parley,
 * type to) users they may not access.
 */
export async function checkSenderCanAccessRecipients(tx: Tx, sender: UserRow, recipients: ReadonlyArray<Pick<UserRow, "id" | "is_bot">>): Promise<void> {
  if (!isGuest(sender) || recipients.every((u) => u.id === sender.id || u.is_bot)) return;
  const access = await loadUserAccess(tx, sender);
  if (!recipients.every((u) => access.canAccess(u))) throw new ApiError("You do not have permission to access some of the recipients.");
}

async function checkAccess(tx: Tx, actor: UserRow, target: UserRow | undefined, opts: UserAccessOptions): Promise<UserRow> {
  if (!target) throw invalidUser();
  if (target.is_bot && !opts.allowBots) throw invalidUser();
  if (!target.is_active && !opts.allowDeactivated) throw userDeactivatedError();
  if (opts.forAdmin) {
    if (!canAdminUser(actor, target)) throw new ApiError("Insufficient permission");
  } else if (!(await loadUserAccess(tx, actor)).canAccess(target)) {
    throw new ApiError("Insufficient permission");
  }
  return target;
}

export async function accessUserById(tx: Tx, actor: UserRow, userId: number, opts: UserAccessOptions): Promise<UserRow> {
  return checkAccess(tx, actor, await getUserById(tx, actor.realm_id, userId), opts);
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
  return checkAccess(tx, actor, target, opts);
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
