/**
 * Publishing a channel's changes to the right people: users who could see it before and still can
 * get each `stream` update; users who can now see it for the first time get a `stream` create
 * (and the subscriber list as a peer_add); users who no longer can get a `stream` delete.
 * An archived channel exists only for clients that declared archived_channels (FL 315, 378): its
 * changes go to them alone, and unarchiving it is an is_archived update for them and a fresh
 * create (with each subscriber's subscription) for the others.
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit, type ChatEvent } from "../../events/bus.js";
import type { Tx } from "../../store/db.js";
import { getSubscriberIds, getSubscriptionRows } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow } from "../../store/types.js";
import { ARCHIVED_CHANNELS } from "./archive-channel.js";
import { channelAudience } from "./channel-audience.js";
import { channelDeleteEvent, channelPresenter, type ChannelPresenter } from "./channel-views.js";

interface Announcement {
  presenter: ChannelPresenter;
  subscribers: number[];
  /** Internal routing fields (events/queue.ts) added to every event. */
  route: Record<string, string>;
}

/**
 * Shows the channel to users who could not see it: a create announcing no subscribers, then the
 * subscriber list as a peer_add, which clients count (OpenAPI Stream.subscriber_count).
 */
function publishShown(deps: AppDeps, tx: Tx, channel: ChannelRow, userIds: readonly number[], a: Announcement): void {
  publishOnCommit(tx, deps.events, { type: "stream", op: "create", streams: [{ ...a.presenter.channel(channel), subscriber_count: 0 }], ...a.route }, userIds);
  if (a.subscribers.length > 0) {
    publishOnCommit(tx, deps.events, { type: "subscription", op: "peer_add", stream_ids: [channel.id], user_ids: a.subscribers, ...a.route }, userIds);
  }
}

export async function publishAccessChanges(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  before: ChannelRow,
  after: ChannelRow,
  updates: ReadonlyArray<Omit<ChatEvent, "type" | "op" | "stream_id">>,
  opts: { unarchived?: boolean } = {},
): Promise<void> {
  const audienceBefore = await channelAudience(tx, before);
  const audienceAfter = await channelAudience(tx, after);
  const staying = [...audienceAfter].filter((id) => audienceBefore.has(id));
  const gained = [...audienceAfter].filter((id) => !audienceBefore.has(id));
  const lost = [...audienceBefore].filter((id) => !audienceAfter.has(id));
  const presenter = await channelPresenter(tx, realm.id, [after], deps.clock.now());
  const subscribers = await getSubscriberIds(tx, after.recipient_id as number);
  const route: Record<string, string> = after.deactivated || opts.unarchived ? { only_with: ARCHIVED_CHANNELS } : {};
  const changes = opts.unarchived ? [{ property: "is_archived", value: false }, ...updates] : updates;
  for (const update of changes) {
    publishOnCommit(tx, deps.events, { type: "stream", op: "update", stream_id: after.id, name: after.name, ...update, ...route }, staying);
  }
  publishShown(deps, tx, after, gained, { presenter, subscribers, route });
  publishOnCommit(tx, deps.events, { ...channelDeleteEvent([after.id]), ...route }, lost);
  if (!opts.unarchived) return;
  const fresh = { only_without: ARCHIVED_CHANNELS };
  publishShown(deps, tx, after, [...audienceAfter], { presenter, subscribers, route: fresh });
  for (const row of await getSubscriptionRows(tx, after.recipient_id as number, subscribers)) {
    const subscription = presenter.subscription(row, after, { includeSubscribers: true });
    publishOnCommit(tx, deps.events, { type: "subscription", op: "add", subscriptions: [subscription], ...fresh }, [row.user_id]);
  }
}
