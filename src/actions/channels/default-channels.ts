/**
 * Default channels: the channels new users are subscribed to (POST/DELETE /default_streams and
 * is_default_stream on create/update). Each change sends the realm's `default_streams` event,
 * which carries channel ids since FL 330.
 */
import { accessChannelById } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { isGuest } from "../../policy/roles.js";
import { addDefaultChannel, getDefaultChannelIds, removeDefaultChannel } from "../../store/channels.js";
import { getActiveRealmUsers } from "../../store/channel-audience.js";
import type { Tx } from "../../store/db.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";

export const privateDefaultChannel = () => new ApiError("A default channel cannot be private.");
export const cannotManageDefaultChannels = () => new ApiError("You do not have permission to change default channels.");

/** Adds or removes the channel; publishes only when the set changes. */
export async function doSetDefaultChannel(deps: AppDeps, tx: Tx, realm: RealmRow, channel: ChannelRow, isDefault: boolean): Promise<void> {
  const before = await getDefaultChannelIds(tx, realm.id);
  if (before.includes(channel.id) === isDefault) return;
  if (isDefault) await addDefaultChannel(tx, realm.id, channel.id);
  else await removeDefaultChannel(tx, realm.id, channel.id);
  const users = await getActiveRealmUsers(tx, realm.id);
  publishOnCommit(
    tx,
    deps.events,
    { type: "default_streams", default_streams: await getDefaultChannelIds(tx, realm.id) },
    users.filter((u) => !isGuest(u)).map((u) => u.id),
  );
}

/** POST /default_streams (administrators): private channels cannot be default. */
export async function checkAddDefaultChannel(deps: AppDeps, tx: Tx, realm: RealmRow, admin: UserRow, channelId: number): Promise<void> {
  const { channel } = await accessChannelById(tx, admin, channelId, { requireContent: true, requireActive: true });
  if (channel.invite_only) throw new ApiError("Private channels cannot be made default.");
  await doSetDefaultChannel(deps, tx, realm, channel, true);
}

/** DELETE /default_streams (administrators). */
export async function checkRemoveDefaultChannel(deps: AppDeps, tx: Tx, realm: RealmRow, admin: UserRow, channelId: number): Promise<void> {
  const { channel } = await accessChannelById(tx, admin, channelId);
  await doSetDefaultChannel(deps, tx, realm, channel, false);
}
