/**
 * Fetch + authorize channels by id or name. A channel the caller may not see and a channel that
 * does not exist give the same error (architecture-anchors §7.5).
 */
import { ApiError } from "../errors.js";
import { Membership } from "../policy/group-settings.js";
import { canAdministerChannel, canReadChannel, canSeeChannelMetadata, type ChannelViewer } from "../policy/channels.js";
import { getChannelById, getChannelByName } from "../store/channels.js";
import type { Tx } from "../store/db.js";
import { isSubscribed } from "../store/subscriptions.js";
import type { ChannelRow, UserRow } from "../store/types.js";

export const invalidChannelId = () => new ApiError("Invalid channel ID");
export const channelIdNotFound = (id: number) =>
  new ApiError(`Channel with ID '${id}' does not exist`, "STREAM_DOES_NOT_EXIST", 400, { stream_id: id });
export const channelNameNotFound = (name: string) =>
  new ApiError(`Channel '${name}' does not exist`, "STREAM_DOES_NOT_EXIST", 400, { stream: name });
/** Zulip's access_stream_by_name error: a plain BAD_REQUEST (OpenAPI get-stream-id's 400 example). */
export const invalidChannelName = (name: string) => new ApiError(`Invalid channel name '${name}'`);

export interface AccessedChannel {
  channel: ChannelRow;
  viewer: ChannelViewer;
}

async function viewerFor(tx: Tx, user: UserRow, channel: ChannelRow, membership?: Membership): Promise<ChannelViewer> {
  return {
    membership: membership ?? (await Membership.load(tx, user)),
    subscribed: channel.recipient_id !== null && (await isSubscribed(tx, user.id, channel.recipient_id)),
  };
}

/** A channel whose metadata the user may see; `notFound` builds the error for missing/hidden. */
export async function accessChannel(
  tx: Tx,
  user: UserRow,
  channel: ChannelRow | undefined,
  notFound: () => ApiError,
  opts: { requireContent?: boolean; requireActive?: boolean; membership?: Membership } = {},
): Promise<AccessedChannel> {
  if (!channel || (opts.requireActive && channel.deactivated)) throw notFound();
  const viewer = await viewerFor(tx, user, channel, opts.membership);
  const allowed = opts.requireContent ? canReadChannel(viewer, channel) : canSeeChannelMetadata(viewer, channel);
  if (!allowed) throw notFound();
  return { channel, viewer };
}

export async function accessChannelById(
  tx: Tx,
  user: UserRow,
  id: number,
  opts: { requireContent?: boolean; requireActive?: boolean; membership?: Membership; notFound?: () => ApiError } = {},
): Promise<AccessedChannel> {
  return accessChannel(tx, user, await getChannelById(tx, user.realm_id, id), opts.notFound ?? invalidChannelId, opts);
}

export async function accessChannelByName(
  tx: Tx,
  user: UserRow,
  name: string,
  opts: { requireContent?: boolean; requireActive?: boolean; membership?: Membership } = {},
): Promise<AccessedChannel> {
  return accessChannel(tx, user, await getChannelByName(tx, user.realm_id, name), () => invalidChannelName(name), opts);
}

export const cannotAdministerChannel = () => new ApiError("You do not have permission to administer this channel.");

/**
 * A channel the user may change or archive (Zulip's access_stream_for_delete_or_update_requiring_
 * metadata_access): realm admins and channel admins, archived or not. Others who can read it learn
 * they lack the permission; everyone else gets the not-found error.
 */
export async function accessChannelForAdministration(tx: Tx, user: UserRow, id: number): Promise<AccessedChannel> {
  const channel = await getChannelById(tx, user.realm_id, id);
  if (!channel) throw invalidChannelId();
  const viewer = await viewerFor(tx, user, channel);
  if (canAdministerChannel(viewer, channel)) return { channel, viewer };
  throw canReadChannel(viewer, channel) ? cannotAdministerChannel() : invalidChannelId();
}
