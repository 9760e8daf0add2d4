/**
 * The checks shared by email invitations and reusable invitation links (spec 4.9): the caller's
 * permission and role rule, then the channels, groups and welcome text the invitation carries.
 * Everything here only reads, so callers run it before their first write.
 */
import { accessChannelById } from "../../access/channels.js";
import { accessGroupForUpdate } from "../../access/user-groups.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, insufficientPermission } from "../../errors.js";
import { canAddSubscribers } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { checkInviteRole } from "../../policy/invites.js";
import { isRealmAdmin } from "../../policy/roles.js";
import { getDefaultChannelIds } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { checkMemberOrAdmin } from "../caller-checks.js";

/** Longest invitation lifetime a caller may ask for: 90 days (null means it never expires). */
export const MAX_INVITE_EXPIRY_MINUTES = 90 * 24 * 60;
/** Zulip's MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH (spec section 8), in code points. */
export const MAX_WELCOME_MESSAGE_LENGTH = 8000;

export interface InviteRequest {
  /** Minutes until it expires; null never expires; undefined takes the server's default. */
  expiresInMinutes: number | null | undefined;
  inviteAs: number;
  channelIds: readonly number[];
  groupIds: readonly number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | undefined;
}

export interface CheckedInvite {
  expiresAt: number | null;
  inviteAs: number;
  channelIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | null;
}

/**
 * Neither guests nor bots invite; the rest need the realm's permission group
 * (can_invite_users_group for email, create_multiuse_invite_group for links; neither allows
 * role:everyone) and may invite only to roles their own allows.
 */
export async function checkInviter(
  tx: Tx,
  realm: RealmRow,
  inviter: UserRow,
  permission: "can_invite_users_group_id" | "create_multiuse_invite_group_id",
  inviteAs: number,
): Promise<Membership> {
  checkMemberOrAdmin(inviter);
  const membership = await Membership.load(tx, inviter);
  if (!membership.has(realm[permission], { allowEveryone: false })) throw insufficientPermission();
  checkInviteRole(inviter, inviteAs);
  return membership;
}

/**
 * Channels must be ones the caller can read and may add subscribers to, or default channels
 * (Zulip's access_streams_for_invite); an unknown or hidden one names its id.
 */
async function checkInviteChannels(tx: Tx, realm: RealmRow, inviter: UserRow, membership: Membership, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const defaults = new Set(await getDefaultChannelIds(tx, realm.id));
  for (const id of unique) {
    const notFound = () => new ApiError(`Invalid channel ID ${id}. No invites were sent.`);
    const { channel, viewer } = await accessChannelById(tx, inviter, id, { requireContent: true, requireActive: true, membership, notFound });
    if (!defaults.has(id) && !canAddSubscribers(viewer, channel, realm.can_add_subscribers_group_id)) {
      throw new ApiError("You do not have permission to subscribe other users to channels.");
    }
  }
  return unique;
}

/** Named, active groups the caller may add members to. */
async function checkInviteGroups(tx: Tx, realm: RealmRow, inviter: UserRow, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  for (const id of unique) await accessGroupForUpdate(tx, realm, inviter, id, ["can_add_members_group"], { allowDeactivated: false });
  return unique;
}

export async function checkInviteTargets(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  inviter: UserRow,
  membership: Membership,
  request: InviteRequest,
): Promise<CheckedInvite> {
  const channelIds = await checkInviteChannels(tx, realm, inviter, membership, request.channelIds);
  const groupIds = await checkInviteGroups(tx, realm, inviter, request.groupIds);
  const minutes = request.expiresInMinutes === undefined ? deps.config.invitationLinkValidityMinutes : request.expiresInMinutes;
  return {
    expiresAt: minutes === null ? null : deps.clock.now() + minutes * 60,
    inviteAs: request.inviteAs,
    channelIds,
    groupIds,
    includeRealmDefaultSubscriptions: request.includeRealmDefaultSubscriptions,
    // Only administrators choose the welcome text; other invitations always use the realm's (spec 4.9).
    welcomeMessageCustomText: isRealmAdmin(inviter) ? (request.welcomeMessageCustomText ?? null) : null,
  };
}
