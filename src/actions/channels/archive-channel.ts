/**
 * Archiving a channel (DELETE /streams/{stream_id}) and unarchiving it (PATCH is_archived=false,
 * FL 388). An archived channel keeps its subscriptions and messages but leaves every list; it
 * stops being a default channel and an announcements channel. Notification Bot posts a notice of
 * either change in the channel, as Zulip does.
 */
import { accessChannelForAdministration } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { realmSetting, sendsChannelEventMessages, withRealmSetting } from "../../lib/realm-settings.js";
import { getChannelById, updateChannel } from "../../store/channels.js";
import { getActiveRealmUsers } from "../../store/channel-audience.js";
import type { Tx } from "../../store/db.js";
import { insertAuditLog, updateRealm } from "../../store/realms.js";
import { getSubscriberIds } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { channelAudience } from "./channel-audience.js";
import { channelDeleteEvent } from "./channel-views.js";
import { doSetDefaultChannel } from "./default-channels.js";
import { CHANNEL_EVENTS_TOPIC, sendChannelNotice, type NoticeOptions } from "../bots/notification-bot.js";

/** The client capability under which archived channels stay in a client's lists (FL 315, 378). */
export const ARCHIVED_CHANNELS = "archived_channels";

/** Realm settings that name a channel; an archived channel is unset from them (-1 = none). */
const CHANNEL_SETTINGS = [
  "new_stream_announcements_stream_id",
  "signup_announcements_stream_id",
  "zulip_update_announcements_stream_id",
  "moderation_request_channel_id",
];

export async function checkArchiveChannel(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, channelId: number): Promise<void> {
  const { channel } = await accessChannelForAdministration(tx, user, channelId);
  if (channel.deactivated) throw new ApiError("Channel is already deactivated");
  const audience = [...(await channelAudience(tx, channel))];
  await updateChannel(tx, channel.id, { deactivated: true });
  await doSetDefaultChannel(deps, tx, realm, channel, false);
  const unset = CHANNEL_SETTINGS.filter((key) => realmSetting(realm, key) === channel.id);
  if (unset.length > 0) {
    let settings = realm.settings;
    for (const key of unset) settings = withRealmSetting({ settings }, key, undefined);
    await updateRealm(tx, realm.id, { settings });
    const users = await getActiveRealmUsers(tx, realm.id);
    const data = Object.fromEntries(unset.map((key) => [key, -1]));
    publishOnCommit(tx, deps.events, { type: "realm", op: "update_dict", property: "default", data }, users.map((u) => u.id));
  }
  await insertAuditLog(tx, { realm_id: realm.id, event_type: "channel_deactivated", event_time: deps.clock.now(), acting_user_id: user.id, modified_channel_id: channel.id });
  const archived = (await getChannelById(tx, realm.id, channel.id)) as ChannelRow;
  // Clients that declared archived_channels keep the channel, marked archived (FL 378); the
  // others drop it.
  const update = { type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "is_archived", value: true };
  publishOnCommit(tx, deps.events, { ...update, only_with: ARCHIVED_CHANNELS }, audience);
  publishOnCommit(tx, deps.events, { ...channelDeleteEvent([channel.id]), only_without: ARCHIVED_CHANNELS }, audience);
  // Zulip's do_deactivate_stream posts this in the channel itself, already read by everyone.
  await sendChannelStateNotice(deps, tx, realm, user, archived, `Channel #**${archived.name}** has been archived.`, {
    readByEveryone: true,
    archivedChannelNotice: true,
  });
}

/** Zulip's do_unarchive_stream notice, after PATCH is_archived=false has taken effect. */
export async function sendUnarchiveNotice(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, channel: ChannelRow): Promise<void> {
  await sendChannelStateNotice(deps, tx, realm, user, channel, `Channel #**${channel.name}** has been unarchived.`, {});
}

/**
 * A notice about the channel, in its "channel events" topic, unless the realm turned such notices
 * off (send_channel_events_messages, FL 434). The #channel link renders as a subscriber sees it:
 * an administrator may archive a private channel they are not subscribed to.
 */
async function sendChannelStateNotice(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  user: UserRow,
  channel: ChannelRow,
  content: string,
  opts: Pick<NoticeOptions, "readByEveryone" | "archivedChannelNotice">,
): Promise<void> {
  if (!sendsChannelEventMessages(realm)) return;
  const subscribers = await getSubscriberIds(tx, channel.recipient_id as number);
  const renderAsUserId = subscribers.includes(user.id) ? undefined : subscribers[0];
  await sendChannelNotice(deps, tx, realm, channel, CHANNEL_EVENTS_TOPIC, content, { actingUser: user, renderAsUserId, ...opts });
}

/** Whether PATCH is_archived=false has work to do; refuses channels that are not archived or could not be seen by anyone. */
export async function checkUnarchive(tx: Tx, channel: ChannelRow): Promise<boolean> {
  if (!channel.deactivated) throw new ApiError("Channel is not currently deactivated");
  if (channel.invite_only && (await getSubscriberIds(tx, channel.recipient_id as number)).length === 0) {
    throw new ApiError("Channel is private and have no subscribers");
  }
  return true;
}
