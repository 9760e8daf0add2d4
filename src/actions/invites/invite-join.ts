/**
 * Accepting an invitation (issue 6, item 8): the join link names an invitation; its form creates
 * the account with the invitation's role, channels (plus the realm's defaults when asked) and
 * groups, uses up an email invitation, and tells the inviter through Notification Bot. Expired,
 * revoked and used links are refused (404 for unknown links, 410 for dead ones).
 */
import { MIN_PASSWORD_LENGTH } from "../auth/passwords.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { realmSetting } from "../../lib/realm-settings.js";
import { fakeEmailDomain } from "../../policy/email-visibility.js";
import { inviteEmailError } from "../../policy/invites.js";
import { getChannelById, getDefaultChannelIds } from "../../store/channels.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { addGroupMembers } from "../../store/groups.js";
import { claimInvitation, getInvitationByKey, INVITE_STATUS, revokeInvitationsForEmail, type InvitationRow } from "../../store/invites.js";
import { getRealmBySubdomain } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getNamedGroupsByIds } from "../../store/user-groups.js";
import { getUserByDeliveryEmail, getUserById } from "../../store/users.js";
import { publishInvitesChanged } from "./invites.js";
import { getRealmDomains } from "../realm/realm-domains.js";
import { sendChannelNotice, sendDirectNotice, silentMention } from "../bots/notification-bot.js";
import { publishGroupEvent } from "../groups/user-groups.js";
import { checkCreateUser, checkFullName, subscribeNewUser } from "../users/users.js";
import { publishUserAdded } from "../users/user-events.js";
import { doSendWelcomeMessages } from "../bots/welcome-bot.js";

/** The register response's password_min_length. */

export interface JoinableInvite {
  realm: RealmRow;
  invite: InvitationRow;
  referrer: UserRow;
}

const deadLink = (message: string) => new ApiError(message, "BAD_REQUEST", 410);

/** The invitation a join link names on this host, if it can still be accepted. */
async function findJoinable(tx: Tx, subdomain: string, key: string, now: number): Promise<JoinableInvite> {
  const realm = await getRealmBySubdomain(tx, subdomain);
  const invite = await getInvitationByKey(tx, key);
  const referrer = invite && realm ? await getUserById(tx, realm.id, invite.referred_by_id) : undefined;
  if (!realm || realm.deactivated || !invite || !referrer) throw new ApiError("This invitation link is not valid.", "BAD_REQUEST", 404);
  if (invite.status === INVITE_STATUS.REVOKED) throw deadLink("This invitation has been revoked.");
  if (invite.status === INVITE_STATUS.USED) throw deadLink("This invitation has already been used.");
  if (invite.expires_at !== null && invite.expires_at < now) throw deadLink("This invitation link has expired.");
  return { realm, invite, referrer };
}

export function getJoinableInvite(deps: AppDeps, subdomain: string, key: string): Promise<JoinableInvite> {
  return findJoinable(readTx(deps.store), subdomain, key, deps.clock.now());
}

export interface JoinForm {
  fullName: string;
  password: string;
  /** Chosen by the person joining through a reusable link; fixed by an email invitation. */
  email: string;
}

export interface JoinedUser {
  realm: RealmRow;
  email: string;
  fullName: string;
}

/** The invited channels, and the realm's defaults when the invitation asks for them. */
async function invitationChannelIds(tx: Tx, realm: RealmRow, invite: InvitationRow): Promise<number[]> {
  const ids = JSON.parse(invite.channel_ids) as number[];
  if (invite.include_realm_default_subscriptions) ids.push(...(await getDefaultChannelIds(tx, realm.id)));
  return ids;
}

/** Adds the new user to the invitation's still-active named groups (user_group add_members). */
async function joinInvitationGroups(deps: AppDeps, tx: Tx, realm: RealmRow, invite: InvitationRow, user: UserRow): Promise<void> {
  const groups = (await getNamedGroupsByIds(tx, realm.id, JSON.parse(invite.group_ids) as number[])).filter((g) => !g.deactivated);
  for (const group of groups) {
    await addGroupMembers(tx, group.id, [user.id]);
    await publishGroupEvent(deps, tx, realm.id, { op: "add_members", group_id: group.id, user_ids: [user.id] });
  }
}

/** Notices after a join: to the inviter, in the signup announcements channel, and Welcome Bot's messages. */
async function sendJoinNotices(deps: AppDeps, tx: Tx, joined: JoinableInvite, user: UserRow): Promise<void> {
  const { realm, invite, referrer } = joined;
  const opts = { actingUser: user };
  if (invite.notify_referrer_on_join && referrer.is_active) {
    await sendDirectNotice(deps, tx, realm, referrer, `${silentMention(user)} accepted your invitation to join ${realm.name}!`, opts);
  }
  const signupChannelId = realmSetting(realm, "signup_announcements_stream_id");
  const signupChannel = typeof signupChannelId === "number" ? await getChannelById(tx, realm.id, signupChannelId) : undefined;
  if (signupChannel) await sendChannelNotice(deps, tx, realm, signupChannel, "signups", `${silentMention(user)} joined this organization.`, opts);
  // spec 4.9: null takes the organization's welcome text; an empty text sends no custom message.
  await doSendWelcomeMessages(deps, tx, realm, user, invite.welcome_message_custom_text);
}

/** The join form's POST: every check before the first write, in one transaction. */
export async function acceptInvitation(deps: AppDeps, subdomain: string, key: string, form: JoinForm): Promise<JoinedUser> {
  return transaction(deps.store, async (tx) => {
    const joinable = await findJoinable(tx, subdomain, key, deps.clock.now());
    const { realm, invite } = joinable;
    const email = invite.is_multiuse ? form.email.trim() : (invite.email as string);
    const emailError = inviteEmailError(realm, await getRealmDomains(tx, realm.id), email);
    if (emailError) throw new ApiError(emailError);
    if (await getUserByDeliveryEmail(tx, realm.id, email)) throw new ApiError("An account with this email address already exists.");
    const fullName = checkFullName(form.fullName);
    if ([...form.password].length < MIN_PASSWORD_LENGTH) throw new ApiError(`The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
    if (!invite.is_multiuse && !(await claimInvitation(tx, invite.id))) throw deadLink("This invitation has already been used.");
    const created = await checkCreateUser(
      tx,
      realm,
      {
        email,
        fullName,
        password: form.password,
        role: invite.invited_as,
        actingUserId: invite.referred_by_id,
        emailDomain: fakeEmailDomain(deps.config, realm.string_id),
      },
      deps.clock.now(),
    );
    const user = (await getUserById(tx, realm.id, created.userId)) as UserRow;
    await publishUserAdded(deps, tx, user);
    await revokeInvitationsForEmail(tx, realm.id, email);
    await subscribeNewUser(deps, tx, realm, user, await invitationChannelIds(tx, realm, invite));
    await joinInvitationGroups(deps, tx, realm, invite, user);
    await publishInvitesChanged(deps, tx, realm.id, invite.referred_by_id);
    await sendJoinNotices(deps, tx, joinable, user);
    return { realm, email, fullName: user.full_name };
  });
}
