/**
 * User objects (spec section 2) as one viewer sees them, for GET /users, GET /users/{id|email}
 * and realm_user events: delivery_email per policy/email-visibility, avatar_url per
 * client_gravatar, profile_data only when asked for and never for bots.
 */
import { loadUserAccess } from "../../access/users.js";
import { presentUser } from "../../present/present-user.js";
import { canSeeDeliveryEmail } from "../../policy/email-visibility.js";
import type { Tx } from "../../store/db.js";
import { getProfileDataForUsers } from "../../store/profile-fields.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listUsers } from "../../store/users.js";

export interface UserViewOptions {
  /** Zulip's ENABLE_GRAVATAR (config.enableGravatar). */
  gravatar: boolean;
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

/** `viewer` null is a spectator, who sees no user's delivery_email. */
export async function presentUsersFor(
  tx: Tx,
  viewer: Pick<UserRow, "id" | "role"> | null,
  users: readonly UserRow[],
  opts: UserViewOptions,
): Promise<Record<string, unknown>[]> {
  const profiles = opts.includeCustomProfileFields ? await getProfileDataForUsers(tx, users.map((u) => u.id)) : undefined;
  return users.map((user) =>
    presentUser(user, {
      gravatar: opts.gravatar,
      clientGravatar: opts.clientGravatar,
      viewerSeesEmail: viewer !== null && canSeeDeliveryEmail(viewer, user),
      profileData: profiles?.get(user.id),
    }),
  );
}

/**
 * GET /users: every account the viewer may access. Users a guest may not access under
 * can_access_all_users_group are left out, never sent as "Unknown user" (FL 437; Zulip's
 * get_users_for_api with user_list_incomplete).
 */
export async function listUsersForViewer(tx: Tx, viewer: UserRow, opts: UserViewOptions & { userIds?: readonly number[] }): Promise<Record<string, unknown>[]> {
  const [users, access] = await Promise.all([listUsers(tx, viewer.realm_id), loadUserAccess(tx, viewer)]);
  // user_ids (FL 384): only these users; ids that name nobody the viewer may see are left out.
  const wanted = opts.userIds === undefined ? null : new Set(opts.userIds);
  return presentUsersFor(tx, viewer, users.filter((u) => access.canAccess(u) && (wanted === null || wanted.has(u.id))), opts);
}

/**
 * GET /users without credentials in a realm that admits spectators (FL 387): every account, as
 * Zulip's get_users_for_api answers with acting_user None (no can_access_all_users_group limit,
 * which restricts guests only), with no delivery_email (zerver/views/users.py get_members_backend).
 */
export async function listUsersForSpectator(tx: Tx, realm: Pick<RealmRow, "id">, opts: UserViewOptions & { userIds?: readonly number[] }): Promise<Record<string, unknown>[]> {
  const users = await listUsers(tx, realm.id);
  const wanted = opts.userIds === undefined ? null : new Set(opts.userIds);
  return presentUsersFor(tx, null, users.filter((u) => wanted === null || wanted.has(u.id)), opts);
}

/**
 * Splits an audience by whether each member may see `target`'s real address, so an event about
 * `target` can carry delivery_email to exactly those who may see it.
 */
export function splitByEmailAccess(target: UserRow, audience: readonly UserRow[]): { seeing: number[]; notSeeing: number[] } {
  const seeing: number[] = [];
  const notSeeing: number[] = [];
  for (const viewer of audience) (canSeeDeliveryEmail(viewer, target) ? seeing : notSeeing).push(viewer.id);
  return { seeing, notSeeing };
}
