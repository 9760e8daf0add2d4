/**
 * realm_user add / remove when a guest limited by can_access_all_users_group gains or loses access
 * to a user (FL 228), as Zulip sends them: add with the full user object when they start sharing
 * a conversation (send_user_creation_events_on_adding_subscriptions,
 * get_recipients_for_user_creation_events), remove with `{user_id, full_name: "Unknown user"}` when
 * the last one ends (send_user_remove_events_on_removing_subscriptions,
 * send_events_for_user_deactivation). Only guests' access can change, so only pairs with a guest
 * on the receiving side are looked at, and only those the change brought together or apart: the
 * cost follows the guests involved, not the size of the realm. Nothing is read in a realm that
 * does not limit access. Bots are always accessible, so never added or removed.
 */
import { partitionByAccess, realmRestrictsAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { withInaccessibleSender } from "../../present/present-message.js";
import { presentUser } from "../../present/present-user.js";
import { fakeEmailDomain } from "../../policy/email-visibility.js";
import { isGuest } from "../../policy/roles.js";
import { INACCESSIBLE_USER_NAME } from "../../policy/user-access.js";
import type { Tx } from "../../store/db.js";
import { getProfileDataForUsers } from "../../store/profile-fields.js";
import { getSubscriberIdsByRecipient } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { getSharedConversationPairs } from "../../store/user-access.js";
import { getUsersByIds } from "../../store/users.js";
import { getRealmById } from "../../store/realms.js";
import { splitByEmailAccess } from "./user-views.js";

/** The manage CLI subscribes without a config: its events go to a bus nobody listens to. */
type Deps = Pick<AppDeps, "events"> & Partial<Pick<AppDeps, "config">>;

/** The domain of "Unknown user" placeholder addresses in a realm (policy/email-visibility). */
export async function placeholderEmailDomain(tx: Tx, config: AppDeps["config"], realmId: number): Promise<string> {
  return fakeEmailDomain(config, (await getRealmById(tx, realmId))?.string_id ?? "");
}

/** guest id → ids of users whose access the guest may have gained or lost. */
type Pairs = Map<number, Set<number>>;

function note(pairs: Pairs, guestId: number, subjectId: number): void {
  if (guestId === subjectId) return;
  let subjects = pairs.get(guestId);
  if (!subjects) pairs.set(guestId, (subjects = new Set()));
  subjects.add(subjectId);
}

async function usersById(tx: Tx, realmId: number, ids: Iterable<number>): Promise<Map<number, UserRow>> {
  return new Map((await getUsersByIds(tx, realmId, [...new Set(ids)])).map((u) => [u.id, u]));
}

/** The candidate pairs whose guest and subject (an active human) share no conversation. */
async function unshared(tx: Tx, candidates: Pairs, users: ReadonlyMap<number, UserRow>, ignoreSubscriptionIds: readonly number[] = []): Promise<Pairs> {
  const subjects = [...new Set([...candidates.values()].flatMap((s) => [...s]))];
  const shared = await getSharedConversationPairs(tx, [...candidates.keys()], subjects, ignoreSubscriptionIds);
  const out: Pairs = new Map();
  for (const [guestId, ids] of candidates) {
    for (const id of ids) {
      const subject = users.get(id);
      if (subject && !subject.is_bot && subject.is_active && !shared.get(guestId)?.has(id)) note(out, guestId, id);
    }
  }
  return out;
}

/** The pairs turned around: subject id → the guests it concerns. */
function bySubject(pairs: Pairs): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [guestId, subjectIds] of pairs) {
    for (const id of subjectIds) {
      const guests = out.get(id);
      if (guests) guests.push(guestId);
      else out.set(id, [guestId]);
    }
  }
  return out;
}

/**
 * realm_user add for each gained user, as the receiving guests see them (email visibility): one
 * event per user and view, to all the guests gaining them (a channel created with thousands of
 * members and a hundred guests is thousands of events, not a guest's worth each).
 */
async function publishAdds(deps: Deps, tx: Tx, pairs: Pairs, users: ReadonlyMap<number, UserRow>): Promise<void> {
  if (pairs.size === 0) return;
  const receiversOf = bySubject(pairs);
  const profiles = await getProfileDataForUsers(tx, [...receiversOf.keys()]);
  const gravatar = deps.config?.enableGravatar ?? false;
  for (const subjectId of [...receiversOf.keys()].sort((x, y) => x - y)) {
    const subject = users.get(subjectId) as UserRow;
    const { seeing, notSeeing } = splitByEmailAccess(subject, (receiversOf.get(subjectId) as number[]).map((id) => users.get(id) as UserRow));
    for (const [ids, viewerSeesEmail] of [[seeing, true], [notSeeing, false]] as const) {
      const person = presentUser(subject, { gravatar, clientGravatar: false, viewerSeesEmail, profileData: profiles.get(subjectId) ?? {} });
      publishOnCommit(tx, deps.events, { type: "realm_user", op: "add", person }, ids);
    }
  }
}

/** realm_user remove, one per user, to the guests who may no longer access them. */
function publishRemoves(deps: Deps, tx: Tx, pairs: Pairs): void {
  const receiversOf = bySubject(pairs);
  for (const subjectId of [...receiversOf.keys()].sort((x, y) => x - y)) {
    const person = { user_id: subjectId, full_name: INACCESSIBLE_USER_NAME };
    publishOnCommit(tx, deps.events, { type: "realm_user", op: "remove", person }, receiversOf.get(subjectId) as number[]);
  }
}

/**
 * Pairs brought together (or apart) in channels: `changed` maps a recipient to the users who
 * joined (or left) it. A guest who changed pairs with every other subscriber; a subscriber who is a
 * guest pairs with each user who changed.
 */
async function channelPairs(tx: Tx, realmId: number, changed: ReadonlyMap<number, readonly number[]>) {
  const subscribers = await getSubscriberIdsByRecipient(tx, [...changed.keys()]);
  const users = await usersById(tx, realmId, [...changed.values(), ...subscribers.values()].flat());
  const pairs: Pairs = new Map();
  const activeGuest = (id: number) => {
    const u = users.get(id);
    return u !== undefined && u.is_active && isGuest(u);
  };
  // Loops over guests only: a channel created with thousands of members pairs no two members.
  for (const [recipientId, movers] of changed) {
    const present = subscribers.get(recipientId) ?? [];
    for (const guestId of movers.filter(activeGuest)) for (const otherId of present) note(pairs, guestId, otherId);
    for (const guestId of present.filter(activeGuest)) for (const moverId of movers) note(pairs, guestId, moverId);
  }
  return { pairs, users };
}

/**
 * After subscribing: `added` maps a channel's recipient to the users who just joined it, whose
 * subscription rows are `freshSubscriptionIds` (left out when asking what was shared before).
 */
export async function publishAccessGainedBySubscribing(
  deps: Deps,
  tx: Tx,
  realmId: number,
  added: ReadonlyMap<number, readonly number[]>,
  freshSubscriptionIds: readonly number[],
): Promise<void> {
  if (added.size === 0 || !(await realmRestrictsAccess(tx, realmId))) return;
  const { pairs, users } = await channelPairs(tx, realmId, added);
  await publishAdds(deps, tx, await unshared(tx, pairs, users, freshSubscriptionIds), users);
}

/** After unsubscribing: `removed` maps a channel's recipient to the users who just left it. */
export async function publishAccessLostByUnsubscribing(deps: Deps, tx: Tx, realmId: number, removed: ReadonlyMap<number, readonly number[]>): Promise<void> {
  if (removed.size === 0 || !(await realmRestrictsAccess(tx, realmId))) return;
  const { pairs, users } = await channelPairs(tx, realmId, removed);
  publishRemoves(deps, tx, await unshared(tx, pairs, users));
}

/**
 * Before a direct message's conversation is created or written to (Zulip's
 * get_recipients_for_user_creation_events): each guest among the participants gains those they
 * shared no conversation with. Queued ahead of the message event, as Zulip sends them.
 */
export async function publishAccessGainedByDirectMessage(deps: Deps, tx: Tx, realmId: number, participants: readonly UserRow[]): Promise<void> {
  const guests = participants.filter((u) => isGuest(u));
  if (guests.length === 0 || !(await realmRestrictsAccess(tx, realmId))) return;
  const pairs: Pairs = new Map();
  for (const guest of guests) for (const p of participants) note(pairs, guest.id, p.id);
  const users = new Map(participants.map((u) => [u.id, u]));
  await publishAdds(deps, tx, await unshared(tx, pairs, users), users);
}

/**
 * Deactivation and reactivation change who may access `user` (a deactivated user's channels stop
 * counting): guests who lose them get realm_user remove (Zulip's send_events_for_user_deactivation),
 * guests who regain them realm_user add. The audiences are userIdsWhoCanAccess around the change.
 */
export async function publishAccessChangeOfUser(
  deps: Deps,
  tx: Tx,
  user: UserRow,
  audienceBefore: readonly number[],
  audienceAfter: readonly number[],
): Promise<void> {
  if (user.is_bot) return;
  const before = new Set(audienceBefore);
  const after = new Set(audienceAfter);
  const gained = [...after].filter((id) => !before.has(id));
  const lost = [...before].filter((id) => !after.has(id));
  const users = await usersById(tx, user.realm_id, [user.id, ...gained, ...lost]);
  users.set(user.id, user);
  const removes: Pairs = new Map();
  for (const id of lost) if (users.get(id)?.is_active) note(removes, id, user.id);
  publishRemoves(deps, tx, removes);
  const adds: Pairs = new Map();
  for (const id of gained) note(adds, id, user.id);
  await publishAdds(deps, tx, adds, users);
}

/**
 * The recipients of a new channel message who may not access its sender, and the message object
 * they get instead (Zulip: a sender outside the channel, in a realm that limits guests). A
 * subscribed sender shares the channel with every recipient; a direct message's participants met
 * before it was written (publishAccessGainedByDirectMessage).
 */
export async function senderHiddenFrom(
  deps: Pick<AppDeps, "config">,
  tx: Tx,
  realm: RealmRow,
  sender: UserRow,
  delivery: { channel: ChannelRow | null; senderSubscribed: boolean; userIds: readonly number[] },
): Promise<{ ids: ReadonlySet<number>; message(m: Record<string, unknown>): Record<string, unknown> }> {
  const ids = delivery.channel && !delivery.senderSubscribed ? (await partitionByAccess(tx, sender, delivery.userIds)).notAccessing : [];
  return { ids: new Set(ids), message: (m) => withInaccessibleSender(m, fakeEmailDomain(deps.config, realm.string_id)) };
}
