/**
 * Subscribing users to channels, with Zulip's events (bulk_add_subscriptions): a `stream` create to
 * users who could not see a channel before (everyone in its audience for a channel created by this
 * request), a `subscription` add with full subscription objects to each new subscriber, and a
 * `subscription` peer_add to the others who can see the channel. Subscribing only affects future
 * messages; earlier ones stay readable through the history rules of access/messages.ts.
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { channelColor } from "../../policy/channel-settings.js";
import type { Tx } from "../../store/db.js";
import { insertAuditLog } from "../../store/realms.js";
import { getSubscriptionRows, subscribeUsers } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow, SubscriptionRow, UserRow } from "../../store/types.js";
import { channelAudiences } from "./channel-audience.js";
import { channelPresenter } from "./channel-views.js";
import { publishAccessGainedBySubscribing } from "../users/user-access-events.js";

export interface SubscriptionPair {
  user: UserRow;
  channel: ChannelRow;
}

export interface AddSubscriptionsResult {
  subscribed: SubscriptionPair[];
  alreadySubscribed: SubscriptionPair[];
}

export interface AddSubscriptionsOptions {
  /** Colors requested per channel id (POST /users/me/subscriptions `color`), else one is picked. */
  colors?: ReadonlyMap<number, string>;
  /** Channels this request created: their `stream` create goes to their whole audience. */
  createdChannelIds?: ReadonlySet<number>;
}

/** What subscribing needs of the dependencies (the manage CLI passes a bus nobody listens to). */
export type SubscribeDeps = Pick<AppDeps, "events" | "clock">;

export async function doAddSubscriptions(
  deps: SubscribeDeps,
  tx: Tx,
  realm: RealmRow,
  actor: UserRow | null,
  channels: readonly ChannelRow[],
  users: readonly UserRow[],
  opts: AddSubscriptionsOptions = {},
): Promise<AddSubscriptionsResult> {
  const created = opts.createdChannelIds ?? new Set<number>();
  const audiencesBefore = await channelAudiences(tx, realm.id, channels.filter((c) => !created.has(c.id)));
  const result: AddSubscriptionsResult = { subscribed: [], alreadySubscribed: [] };
  const newRows = new Map<number, SubscriptionRow[]>();
  for (const channel of channels) {
    const recipientId = channel.recipient_id as number;
    const requested = opts.colors?.get(channel.id);
    const fresh = new Set(await subscribeUsers(tx, recipientId, users.map((u) => u.id), (uid) => requested ?? channelColor(channel.id, uid)));
    for (const user of users) (fresh.has(user.id) ? result.subscribed : result.alreadySubscribed).push({ user, channel });
    if (fresh.size === 0) continue;
    newRows.set(channel.id, await getSubscriptionRows(tx, recipientId, [...fresh]));
    for (const userId of fresh) {
      await insertAuditLog(tx, {
        realm_id: realm.id,
        event_type: "subscription_created",
        event_time: deps.clock.now(),
        acting_user_id: actor?.id ?? null,
        modified_user_id: userId,
        modified_channel_id: channel.id,
      });
    }
  }
  const changed = channels.filter((c) => newRows.has(c.id) || created.has(c.id));
  // Guests limited by can_access_all_users_group meet their new peers first (realm_user add).
  const joined = new Map([...newRows].map(([channelId, rows]) => [channels.find((c) => c.id === channelId)!.recipient_id as number, rows.map((r) => r.user_id)]));
  await publishAccessGainedBySubscribing(deps, tx, realm.id, joined, [...newRows.values()].flat().map((r) => r.id));
  await publishSubscriptionEvents(deps, tx, realm, changed, newRows, { created, audiencesBefore });
  return result;
}

async function publishSubscriptionEvents(
  deps: SubscribeDeps,
  tx: Tx,
  realm: RealmRow,
  channels: readonly ChannelRow[],
  newRows: ReadonlyMap<number, SubscriptionRow[]>,
  ctx: { created: ReadonlySet<number>; audiencesBefore: ReadonlyMap<number, Set<number>> },
): Promise<void> {
  const presenter = await channelPresenter(tx, realm.id, channels, deps.clock.now());
  const audiences = await channelAudiences(tx, realm.id, channels);
  for (const channel of channels) {
    const newIds = (newRows.get(channel.id) ?? []).map((r) => r.user_id);
    const before = ctx.audiencesBefore.get(channel.id) ?? new Set<number>();
    const created = ctx.created.has(channel.id);
    const receivers = created ? [...(audiences.get(channel.id) ?? [])] : newIds.filter((id) => !before.has(id));
    // A channel created by this request is announced empty, as Zulip announces it before
    // subscribing anyone: the peer_add below brings each client's subscriber_count up.
    const stream = created ? { ...presenter.channel(channel), subscriber_count: 0 } : presenter.channel(channel);
    publishOnCommit(tx, deps.events, { type: "stream", op: "create", streams: [stream] }, receivers);
  }
  const byUser = new Map<number, Array<Record<string, unknown>>>();
  for (const channel of channels) {
    for (const row of newRows.get(channel.id) ?? []) {
      byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), presenter.subscription(row, channel, { includeSubscribers: true })]);
    }
  }
  for (const [userId, subscriptions] of byUser) {
    publishOnCommit(tx, deps.events, { type: "subscription", op: "add", subscriptions }, [userId]);
  }
  for (const channel of channels) {
    const newIds = (newRows.get(channel.id) ?? []).map((r) => r.user_id).sort((a, b) => a - b);
    if (newIds.length === 0) continue;
    const peers = [...(audiences.get(channel.id) ?? [])].filter((id) => !newIds.includes(id));
    publishOnCommit(tx, deps.events, { type: "subscription", op: "peer_add", stream_ids: [channel.id], user_ids: newIds }, peers);
  }
}
