/**
 * Pending invitations (Zulip's get-invites, revoke-email-invite, revoke-invite-link,
 * resend-email-invite): administrators manage every invitation, other members their own; an
 * invitation to the owner role is someone else's to manage only for owners.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { joinUrl } from "../../mail/invitation-mail.js";
import type { MailMessage } from "../../mail/transport.js";
import { checkInviteRole } from "../../policy/invites.js";
import { isRealmAdmin } from "../../policy/roles.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { getInvitationById, INVITE_STATUS, listPendingInvitations, setInvitationStatus, type InvitationRow } from "../../store/invites.js";
import { insertAuditLog } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { checkMemberOrAdmin } from "../caller-checks.js";
import { checkDailyInviteLimit, deliverMails, publishInvitesChanged, recordInvitationEmail } from "./invites.js";

const noSuchInvitation = () => new ApiError("No such invitation");

/** The invitation object of Zulip's API: `email` for email invitations, `link_url` for reusable links. */
export function presentInvite(deps: AppDeps, realm: RealmRow, row: InvitationRow): Record<string, unknown> {
  const common = {
    id: row.id,
    invited_by_user_id: row.referred_by_id,
    invited: row.invited_at,
    expiry_date: row.expires_at,
    invited_as: row.invited_as,
    is_multiuse: row.is_multiuse,
  };
  return row.is_multiuse
    ? { ...common, link_url: joinUrl(deps.config, realm, row.confirmation_key) }
    : { ...common, email: row.email, notify_referrer_on_join: row.notify_referrer_on_join };
}

/** GET /invites: unexpired, unused and unrevoked invitations the caller may manage. */
export async function getInvites(deps: AppDeps, realm: RealmRow, user: UserRow): Promise<Record<string, unknown>[]> {
  checkMemberOrAdmin(user);
  const rows = await listPendingInvitations(readTx(deps.store), realm.id, deps.clock.now(), isRealmAdmin(user) ? undefined : user.id);
  return rows.map((row) => presentInvite(deps, realm, row));
}

/** An invitation of the given kind the caller may manage (Zulip's access_invite_by_id). */
async function accessInvite(tx: Tx, realm: RealmRow, user: UserRow, id: number, multiuse: boolean): Promise<InvitationRow> {
  checkMemberOrAdmin(user);
  const invite = await getInvitationById(tx, realm.id, id);
  if (!invite || invite.is_multiuse !== multiuse) throw noSuchInvitation();
  if (invite.referred_by_id !== user.id) checkInviteRole(user, invite.invited_as, { requireAdmin: true });
  if (invite.status === INVITE_STATUS.REVOKED && multiuse) throw new ApiError("Invitation has already been revoked");
  if (invite.status !== INVITE_STATUS.ACTIVE) throw noSuchInvitation();
  return invite;
}

/** DELETE /invites/{id} and DELETE /invites/multiuse/{id}: the link stops working at once. */
export async function revokeInvite(deps: AppDeps, realm: RealmRow, user: UserRow, id: number, multiuse: boolean): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const invite = await accessInvite(tx, realm, user, id, multiuse);
    await setInvitationStatus(tx, invite.id, INVITE_STATUS.REVOKED);
    await insertAuditLog(tx, {
      realm_id: realm.id,
      event_type: "invitation_revoked",
      event_time: deps.clock.now(),
      acting_user_id: user.id,
      extra_data: { invitation_id: invite.id, is_multiuse: multiuse },
    });
    await publishInvitesChanged(deps, tx, realm.id, invite.referred_by_id);
  });
}

/**
 * POST /invites/{id}/resend: the same link again (its expiry unchanged), counted against the
 * daily cap; an expired invitation cannot be resent.
 */
export async function resendInvite(deps: AppDeps, realm: RealmRow, user: UserRow, id: number): Promise<void> {
  const mail: MailMessage = await transaction(deps.store, async (tx) => {
    const invite = await accessInvite(tx, realm, user, id, false);
    if (invite.expires_at !== null && invite.expires_at < deps.clock.now()) throw noSuchInvitation();
    await checkDailyInviteLimit(deps, tx, realm, 1);
    const referrer = (await getUserById(tx, realm.id, invite.referred_by_id)) as UserRow;
    return recordInvitationEmail(deps, tx, realm, referrer, invite);
  });
  await deliverMails(deps, [mail]);
}
