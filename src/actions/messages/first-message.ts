/**
 * A channel's first_message_id (OpenAPI BasicStream): the oldest message in it. Zulip fills it on
 * the first message (clients compute it from the message event) and recomputes it when that
 * message leaves (check_update_first_message_id), with a `stream` update to those who can see
 * the channel.
 */
import type { AppDeps } from "../../deps.js";
import { publishOnCommit } from "../../events/bus.js";
import { getChannelById, updateChannel } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getFirstMessageId } from "../../store/messages.js";
import type { ChannelRow } from "../../store/types.js";
import { ARCHIVED_CHANNELS } from "../channels/archive-channel.js";
import { channelAudience } from "../channels/channel-audience.js";

async function publishFirstMessageId(deps: AppDeps, tx: Tx, channel: ChannelRow, value: number | null, except: ReadonlySet<number>): Promise<void> {
  const audience = [...(await channelAudience(tx, channel))].filter((id) => !except.has(id));
  // An archived channel (its archiving notice) exists only for clients with archived_channels.
  const route = channel.deactivated ? { only_with: ARCHIVED_CHANNELS } : {};
  const event = { type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "first_message_id", value, ...route };
  publishOnCommit(tx, deps.events, event, audience);
}

/**
 * A channel's first message: its recipients learn the value from the message event; everyone
 * else who can see the channel gets the update, so no client's copy goes stale (Zulip sends
 * none, leaving non-subscribers' copies stale).
 */
export async function doSetFirstMessageId(deps: AppDeps, tx: Tx, channel: ChannelRow, messageId: number, recipientIds: readonly number[]): Promise<void> {
  // The caller's row may predate a move into the channel in the same transaction.
  if ((await getChannelById(tx, channel.realm_id, channel.id))?.first_message_id != null) return;
  await updateChannel(tx, channel.id, { first_message_id: messageId });
  await publishFirstMessageId(deps, tx, channel, messageId, new Set(recipientIds));
}

/** After messages were deleted from or moved into or out of a channel. */
export async function doRefreshFirstMessageId(deps: AppDeps, tx: Tx, channel: ChannelRow): Promise<void> {
  const current = await getFirstMessageId(tx, channel.recipient_id as number);
  if (current === channel.first_message_id) return;
  await updateChannel(tx, channel.id, { first_message_id: current });
  await publishFirstMessageId(deps, tx, channel, current, new Set());
}
