/**
 * SQL behind can_access_all_users_group (policy/user-access.ts): the group the realm's setting
 * names, and the users someone shares a conversation with (Zulip's
 * get_subscribers_of_target_user_subscriptions and get_users_involved_in_dms_with_target_users).
 */
import { RECIPIENT } from "./channels.js";
import type { Tx } from "./db.js";

/** The name of the system group the realm's can_access_all_users_group names (null if unset). */
export async function getAccessAllUsersGroupName(tx: Tx, realmId: number): Promise<string | null> {
  const row = await tx.db
    .selectFrom("realms")
    .innerJoin("user_groups", "user_groups.id", "realms.can_access_all_users_group_id")
    .select("user_groups.name")
    .where("realms.id", "=", realmId)
    .executeTakeFirst();
  return row?.name ?? null;
}

/**
 * Pairs of users with active subscriptions to one channel or direct-message group, `a` among
 * `leftIds` (and `b` among `rightIds` when given). A channel counts only while both users are
 * active (a deactivated user's subscriptions are is_user_active = false: Zulip treats deactivated
 * channel subscribers as inaccessible); a direct-message group counts whatever their state.
 * Read in two steps, the left side's subscriptions first and then their recipients' other
 * subscribers, matched here: one join with both sides filtered let SQLite start from the larger
 * side (3.4 s for 100 guests against 5,000 users; this way, tens of milliseconds).
 */
async function sharedSubscriptionPairs(tx: Tx, leftIds: readonly number[], rightIds: readonly number[] | null, ignoreSubscriptionIds: readonly number[]) {
  const ignored = new Set(ignoreSubscriptionIds);
  const counts = (sub: { id: number; is_user_active: boolean }, type: number) => !ignored.has(sub.id) && (type === RECIPIENT.DIRECT_MESSAGE_GROUP || sub.is_user_active);
  const mine = await tx.db
    .selectFrom("subscriptions as s")
    .innerJoin("recipients as r", "r.id", "s.recipient_id")
    .select(["s.id", "s.user_id", "s.recipient_id", "s.is_user_active", "r.type"])
    .where("s.user_id", "in", [...leftIds])
    .where("s.active", "=", true)
    .where("r.type", "in", [RECIPIENT.CHANNEL, RECIPIENT.DIRECT_MESSAGE_GROUP])
    .execute();
  const leftBy = new Map<number, { users: number[]; type: number }>();
  for (const sub of mine) {
    if (!counts(sub, sub.type)) continue;
    const entry = leftBy.get(sub.recipient_id) ?? { users: [], type: sub.type };
    entry.users.push(sub.user_id);
    leftBy.set(sub.recipient_id, entry);
  }
  if (leftBy.size === 0) return [];
  let others = tx.db
    .selectFrom("subscriptions")
    .select(["id", "user_id", "recipient_id", "is_user_active"])
    .where("recipient_id", "in", [...leftBy.keys()])
    .where("active", "=", true);
  if (rightIds !== null) others = others.where("user_id", "in", [...rightIds]);
  const pairs: Array<{ a: number; b: number }> = [];
  for (const sub of await others.execute()) {
    const entry = leftBy.get(sub.recipient_id) as { users: number[]; type: number };
    if (counts(sub, entry.type)) for (const a of entry.users) pairs.push({ a, b: sub.user_id });
  }
  return pairs;
}

/**
 * Everyone `userId` shares a conversation with, bots and deactivated users included: the other
 * subscribers of their channels and direct-message groups (sharedSubscriptionPairs), and both
 * sides of their 1:1 direct messages, whatever their state, so a guest keeps seeing a deactivated
 * partner (get_accessible_user_ids(include_deactivated_users=True)). Callers that send events
 * filter to active users. `userId` itself is left out.
 */
export async function getConversationPartnerIds(tx: Tx, userId: number): Promise<Set<number>> {
  const [shared, sentTo, receivedFrom] = await Promise.all([
    sharedSubscriptionPairs(tx, [userId], null, []),
    // 1:1 messages the user sent: the partner is the personal recipient's user.
    tx.db
      .selectFrom("messages as m")
      .innerJoin("recipients as r", "r.id", "m.recipient_id")
      .select("r.type_id as user_id")
      .distinct()
      .where("m.sender_id", "=", userId)
      .where("r.type", "=", RECIPIENT.PERSONAL)
      .execute(),
    // 1:1 messages the user received: addressed to their personal recipient.
    tx.db
      .selectFrom("messages as m")
      .innerJoin("recipients as r", "r.id", "m.recipient_id")
      .select("m.sender_id as user_id")
      .distinct()
      .where("r.type", "=", RECIPIENT.PERSONAL)
      .where("r.type_id", "=", userId)
      .execute(),
  ]);
  const ids = new Set<number>([...shared.map((r) => r.b), ...sentTo.map((r) => r.user_id), ...receivedFrom.map((r) => r.user_id)]);
  ids.delete(userId);
  return ids;
}

/** The active guests among `userIds` (the only accounts whose access to users can be limited). */
export async function getActiveGuestIds(tx: Tx, realmId: number, userIds: Iterable<number>): Promise<Set<number>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Set();
  const rows = await tx.db
    .selectFrom("users")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("id", "in", ids)
    .where("is_active", "=", true)
    // Role 600: guest (spec conventions 7).
    .where("role", "=", 600)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The realm's active accounts, guests apart (only their access to users can be limited). */
export async function getActiveUsersByGuestness(tx: Tx, realmId: number): Promise<{ guests: number[]; nonGuests: number[] }> {
  const rows = await tx.db.selectFrom("users").select(["id", "role"]).where("realm_id", "=", realmId).where("is_active", "=", true).execute();
  // Role 600: guest (spec conventions 7).
  return { guests: rows.filter((r) => r.role === 600).map((r) => r.id), nonGuests: rows.filter((r) => r.role !== 600).map((r) => r.id) };
}

/**
 * Which (left, right) pairs share a conversation, by the rules of getConversationPartnerIds, as
 * left id → right ids. Bounded by the pairs asked about, so a change involving a few guests stays
 * cheap in a large realm. Subscriptions in `ignoreSubscriptionIds` (just written) do not count.
 */
export async function getSharedConversationPairs(
  tx: Tx,
  leftIds: readonly number[],
  rightIds: readonly number[],
  ignoreSubscriptionIds: readonly number[] = [],
): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  const left = [...new Set(leftIds)];
  const right = [...new Set(rightIds)];
  if (left.length === 0 || right.length === 0) return out;
  const add = (a: number, b: number) => {
    if (a === b) return;
    let set = out.get(a);
    if (!set) out.set(a, (set = new Set()));
    set.add(b);
  };
  for (const r of await sharedSubscriptionPairs(tx, left, right, ignoreSubscriptionIds)) add(r.a, r.b);
  // 1:1 messages either way, found through the personal recipients of one side and the senders on the other.
  const personal = await tx.db
    .selectFrom("recipients")
    .select(["id", "type_id"])
    .where("type", "=", RECIPIENT.PERSONAL)
    .where("type_id", "in", [...new Set([...left, ...right])])
    .execute();
  const userOfRecipient = new Map(personal.map((p) => [p.id, p.type_id]));
  const recipientsOf = (ids: readonly number[]) => {
    const wanted = new Set(ids);
    return personal.filter((p) => wanted.has(p.type_id)).map((p) => p.id);
  };
  const directions: Array<[number[], number[], boolean]> = [
    [recipientsOf(right), left, false],
    [recipientsOf(left), right, true],
  ];
  for (const [recipientIds, senders, senderIsRight] of directions) {
    if (recipientIds.length === 0) continue;
    const rows = await tx.db
      .selectFrom("messages")
      .select(["sender_id", "recipient_id"])
      .distinct()
      .where("recipient_id", "in", recipientIds)
      .where("sender_id", "in", senders)
      .execute();
    for (const r of rows) {
      const receiver = userOfRecipient.get(r.recipient_id) as number;
      if (senderIsRight) add(receiver, r.sender_id);
      else add(r.sender_id, receiver);
    }
  }
  return out;
}
