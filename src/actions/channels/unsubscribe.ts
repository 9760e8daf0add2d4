/**
 * DELETE /users/me/subscriptions: unsubscribe the caller (or `principals`) from channels by name.
 * Removing anyone but oneself or one's own bots needs can_remove_subscribers_group (admins always).
 * Events as in Zulip's bulk_remove_subscriptions: `subscription` remove to each removed user, a
 * `stream` delete to those who can no longer see a private channel, and `subscription`
 * peer_remove to the others who can.
 */
import { channelNameNotFound } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { insufficientPermission } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { canRemoveSubscribers, canSeeChannelMetadata } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { getChannelsByNames } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { insertAuditLog } from "../../store/realms.js";
import { getSubscribedChannelIds, unsubscribeUsers } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { channelAudiences } from "./channel-audience.js";
import { channelDeleteEvent } from "./channel-views.js";
import { resolvePrincipals } from "./subscribe.js";
import { publishAccessLostByUnsubscribing } from "../users/user-access-events.js";
import type { SubscriptionPair } from "./subscriptions-add.js";

/** The named channels the user may see; a hidden or missing one is STREAM_DOES_NOT_EXIST. */
export async function visibleChannelsByNames(tx: Tx, user: UserRow, names: readonly string[]): Promise<ChannelRow[]> {
  const trimmed = names.map((n) => n.trim());
  const found = await getChannelsByNames(tx, user.realm_id, trimmed);
  const membership = await Membership.load(tx, user);
  const subscribed = new Set(await getSubscribedChannelIds(tx, user.id));
  const out: ChannelRow[] = [];
  for (const name of trimmed) {
    const channel = found.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!channel || !canSeeChannelMetadata({ membership, subscribed: subscribed.has(channel.id) }, channel)) throw channelNameNotFound(name);
    if (!out.includes(channel)) out.push(channel);
  }
  return out;
}

export async function checkUnsubscribe(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  actor: UserRow,
  names: readonly string[],
  principals?: ReadonlyArray<string | number>,
): Promise<{ removed: string[]; not_removed: string[] }> {
  const channels = await visibleChannelsByNames(tx, actor, names);
  const targets = principals?.length ? await resolvePrincipals(tx, realm, principals) : [actor];
  const removingOthers = targets.some((u) => u.id !== actor.id && !(u.is_bot && u.bot_owner_id === actor.id));
  if (removingOthers) {
    const membership = await Membership.load(tx, actor);
    const subscribed = new Set(await getSubscribedChannelIds(tx, actor.id));
    if (!channels.every((c) => canRemoveSubscribers({ membership, subscribed: subscribed.has(c.id) }, c))) throw insufficientPermission();
  }
  const { removed, notSubscribed } = await doRemoveSubscriptions(deps, tx, realm, actor, channels, targets);
  return { removed: removed.map((p) => p.channel.name), not_removed: notSubscribed.map((p) => p.channel.name) };
}

export async function doRemoveSubscriptions(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  actor: UserRow,
  channels: readonly ChannelRow[],
  users: readonly UserRow[],
): Promise<{ removed: SubscriptionPair[]; notSubscribed: SubscriptionPair[] }> {
  const removed: SubscriptionPair[] = [];
  const notSubscribed: SubscriptionPair[] = [];
  const removedIds = new Map<number, number[]>();
  for (const channel of channels) {
    const ids = new Set(await unsubscribeUsers(tx, channel.recipient_id as number, users.map((u) => u.id)));
    for (const user of users) (ids.has(user.id) ? removed : notSubscribed).push({ user, channel });
    if (ids.size > 0) removedIds.set(channel.id, [...ids].sort((a, b) => a - b));
    for (const userId of ids) {
      await insertAuditLog(tx, {
        realm_id: realm.id,
        event_type: "subscription_deactivated",
        event_time: deps.clock.now(),
        acting_user_id: actor.id,
        modified_user_id: userId,
        modified_channel_id: channel.id,
      });
    }
  }
  await publishRemovalEvents(deps, tx, realm, removed, removedIds);
  const left = new Map([...removedIds].map(([channelId, ids]) => [channels.find((c) => c.id === channelId)!.recipient_id as number, ids]));
  await publishAccessLostByUnsubscribing(deps, tx, realm.id, left);
  return { removed, notSubscribed };
}

async function publishRemovalEvents(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  removed: readonly SubscriptionPair[],
  removedIds: ReadonlyMap<number, number[]>,
): Promise<void> {
  const byUser = new Map<number, SubscriptionPair[]>();
  for (const pair of removed) byUser.set(pair.user.id, [...(byUser.get(pair.user.id) ?? []), pair]);
  for (const [userId, pairs] of byUser) {
    const subscriptions = pairs.map((p) => ({ name: p.channel.name, stream_id: p.channel.id }));
    publishOnCommit(tx, deps.events, { type: "subscription", op: "remove", subscriptions }, [userId]);
    const membership = await Membership.load(tx, pairs[0].user);
    // Private channels, and for guests public ones too (Zulip's check_basic_stream_access).
    const lost = pairs.map((p) => p.channel).filter((c) => !canSeeChannelMetadata({ membership, subscribed: false }, c));
    if (lost.length > 0) publishOnCommit(tx, deps.events, channelDeleteEvent(lost.map((c) => c.id)), [userId]);
  }
  const channels = [...new Map(removed.map((p) => [p.channel.id, p.channel])).values()];
  const audiences = await channelAudiences(tx, realm.id, channels);
  for (const channel of channels) {
    const userIds = removedIds.get(channel.id) ?? [];
    const peers = [...(audiences.get(channel.id) ?? [])].filter((id) => !userIds.includes(id));
    publishOnCommit(tx, deps.events, { type: "subscription", op: "peer_remove", stream_ids: [channel.id], user_ids: userIds }, peers);
  }
}
