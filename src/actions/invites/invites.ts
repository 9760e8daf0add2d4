/**
 * Sending invitations (spec 4.9; Zulip's send-invites and create-invite-link): every check runs
 * before the first write, in one transaction; the invitation emails leave after the commit. Each
 * change tells the administrators and the inviter (`invites_changed`).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { invitationMail, joinUrl } from "../../mail/invitation-mail.js";
import { randomToken } from "../../lib/secrets.js";
import { mailTransport, type MailMessage } from "../../mail/transport.js";
import { inviteEmailError } from "../../policy/invites.js";
import { getRealmDomains } from "../realm/realm-domains.js";
import { transaction, type Tx } from "../../store/db.js";
import { countInvitationEmailsSince, INVITE_EMAIL_SENT, insertInvitation, type InvitationRow } from "../../store/invites.js";
import { insertAuditLog } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUsersByEmails, listActiveAdminIds } from "../../store/users.js";
import { checkInviter, checkInviteTargets, type CheckedInvite, type InviteRequest } from "./invite-checks.js";
import { isSystemBotEmail } from "../../policy/system-bots.js";
import { errorFields, logLine } from "../../lib/log.js";

/** Zulip's INVITES_DEFAULT_REALM_DAILY_MAX: invitation emails per realm per day unless realms.max_invites says otherwise. */
export const INVITES_DEFAULT_REALM_DAILY_MAX = 100;
const DAY = 86400;

/** [email, reason, whether the address belongs to a deactivated account] (spec section 7). */
export type InviteSkip = [string, string, boolean];

export function invitationFailed(message: string, errors: InviteSkip[], opts: { sent: boolean; dailyLimit?: boolean }): ApiError {
  return new ApiError(message, "INVITATION_FAILED", 400, {
    errors,
    sent_invitations: opts.sent,
    license_limit_reached: false,
    daily_limit_reached: opts.dailyLimit ?? false,
  });
}

/**
 * Addresses separated by commas or newlines, each optionally as `Name <address>`; trimmed, empty
 * entries dropped, repeats (in any letter case) kept once.
 */
export function parseInviteeEmails(raw: string): string[] {
  const seen = new Map<string, string>();
  for (const entry of raw.split(/[,\n]/)) {
    const email = (/<(.*)>/.exec(entry)?.[1] ?? entry).trim();
    if (email !== "" && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}

/** The administrators and the invitation's creator, whose pending-invitation lists changed. */
export async function publishInvitesChanged(deps: AppDeps, tx: Tx, realmId: number, referrerId: number): Promise<void> {
  const audience = new Set(await listActiveAdminIds(tx, realmId));
  audience.add(referrerId);
  publishOnCommit(tx, deps.events, { type: "invites_changed" }, [...audience]);
}

/** Refuses `count` more emails past the realm's daily cap (nothing is sent then). */
export async function checkDailyInviteLimit(deps: AppDeps, tx: Tx, realm: RealmRow, count: number): Promise<void> {
  const sent = await countInvitationEmailsSince(tx, realm.id, deps.clock.now() - DAY);
  if (sent + count > (realm.max_invites ?? INVITES_DEFAULT_REALM_DAILY_MAX)) {
    throw invitationFailed(
      "To protect users, this server limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
      [],
      { sent: false, dailyLimit: true },
    );
  }
}

/** Records one invitation email against the daily cap and composes it. */
export async function recordInvitationEmail(deps: AppDeps, tx: Tx, realm: RealmRow, referrer: UserRow, invite: InvitationRow): Promise<MailMessage> {
  const now = deps.clock.now();
  await insertAuditLog(tx, { realm_id: realm.id, event_type: INVITE_EMAIL_SENT, event_time: now, acting_user_id: referrer.id, extra_data: { invitation_id: invite.id } });
  return invitationMail(deps.config, { realm, referrer, to: invite.email as string, confirmationKey: invite.confirmation_key, expiresAt: invite.expires_at, now });
}

/**
 * Sends mail composed in a committed transaction. A failure leaves the invitations saved (they can
 * be resent): the operator sees why on stderr, the caller that the email did not go out.
 */
export async function deliverMails(deps: AppDeps, mails: readonly MailMessage[]): Promise<void> {
  try {
    const transport = mailTransport(deps.config);
    for (const mail of mails) await transport.send(mail);
  } catch (err) {
    logLine("error", "invitation email could not be sent", { err: errorFields(err) });
    throw new ApiError("The invitation was saved, but its email could not be sent; try resending it.", "BAD_REQUEST", 502);
  }
}

/** Existing accounts among the addresses (Zulip's get_existing_user_errors). */
async function existingAccountSkips(tx: Tx, realm: RealmRow, emails: readonly string[]): Promise<InviteSkip[]> {
  const users = await getUsersByEmails(tx, realm.id, emails);
  const skips: InviteSkip[] = [];
  for (const email of emails) {
    if (isSystemBotEmail(email)) {
      skips.push([email, "Reserved for system bots.", false]);
      continue;
    }
    const user = users.find((u) => u.delivery_email.toLowerCase() === email.toLowerCase());
    if (user) skips.push([email, user.is_active ? "Already has an account." : "Account has been deactivated.", !user.is_active]);
  }
  return skips;
}

function invitationRow(realm: RealmRow, inviter: UserRow, checked: CheckedInvite, now: number) {
  return {
    realm_id: realm.id,
    referred_by_id: inviter.id,
    invited_as: checked.inviteAs,
    invited_at: now,
    expires_at: checked.expiresAt,
    channel_ids: JSON.stringify(checked.channelIds),
    group_ids: JSON.stringify(checked.groupIds),
    welcome_message_custom_text: checked.welcomeMessageCustomText,
    include_realm_default_subscriptions: checked.includeRealmDefaultSubscriptions,
    confirmation_key: randomToken(18),
  };
}

export interface InviteUsersInput extends InviteRequest {
  inviteeEmails: string;
  notifyReferrerOnJoin: boolean;
}

/**
 * POST /invites. Invalid addresses stop everything; addresses that already have accounts are
 * skipped and reported (INVITATION_FAILED with sent_invitations true) while the rest are invited.
 */
export async function checkInviteUsers(deps: AppDeps, realm: RealmRow, inviter: UserRow, input: InviteUsersInput): Promise<void> {
  const { mails, skipped } = await transaction(deps.store, async (tx) => {
    const membership = await checkInviter(tx, realm, inviter, "can_invite_users_group_id", input.inviteAs);
    const emails = parseInviteeEmails(input.inviteeEmails);
    if (emails.length === 0) throw new ApiError("You must specify at least one email address.");
    const checked = await checkInviteTargets(deps, tx, realm, inviter, membership, input);
    await checkDailyInviteLimit(deps, tx, realm, emails.length);
    const domains = await getRealmDomains(tx, realm.id);
    const invalid = emails.flatMap((email): InviteSkip[] => {
      const error = inviteEmailError(realm, domains, email);
      return error ? [[email, error, false]] : [];
    });
    const skipped = await existingAccountSkips(tx, realm, emails.filter((e) => !invalid.some(([bad]) => bad === e)));
    if (invalid.length > 0) {
      throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], { sent: false });
    }
    if (skipped.length === emails.length) throw invitationFailed("We weren't able to invite anyone.", skipped, { sent: false });
    const now = deps.clock.now();
    const mails: MailMessage[] = [];
    for (const email of emails.filter((e) => !skipped.some(([s]) => s === e))) {
      const row = await insertInvitation(tx, { ...invitationRow(realm, inviter, checked, now), email, notify_referrer_on_join: input.notifyReferrerOnJoin });
      mails.push(await recordInvitationEmail(deps, tx, realm, inviter, row));
    }
    await publishInvitesChanged(deps, tx, realm.id, inviter.id);
    return { mails, skipped };
  });
  await deliverMails(deps, mails);
  if (skipped.length > 0) {
    throw invitationFailed(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      { sent: true },
    );
  }
}

/** POST /invites/multiuse: a reusable link; whoever opens it chooses their own address. */
export async function createMultiuseInvite(deps: AppDeps, realm: RealmRow, inviter: UserRow, request: InviteRequest): Promise<string> {
  return transaction(deps.store, async (tx) => {
    const membership = await checkInviter(tx, realm, inviter, "create_multiuse_invite_group_id", request.inviteAs);
    const checked = await checkInviteTargets(deps, tx, realm, inviter, membership, request);
    const row = await insertInvitation(tx, { ...invitationRow(realm, inviter, checked, deps.clock.now()), email: null, is_multiuse: true, notify_referrer_on_join: false });
    await publishInvitesChanged(deps, tx, realm.id, inviter.id);
    return joinUrl(deps.config, realm, row.confirmation_key);
  });
}
