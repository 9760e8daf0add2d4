/**
 * Who may see a channel, for addressing its events (Zulip's can_access_stream_metadata_user_ids):
 * every active user for a web-public channel; non-guests plus guest subscribers for a public one;
 * for a private one its subscribers, the realm's administrators (bots included) and the non-guest
 * members of the groups granting metadata access (administer, add subscribers, subscribe).
 */
import { ROLE, isGuest, isRealmAdmin } from "../../policy/roles.js";
import { getActiveRealmUsers, getRecursiveGroupMembers } from "../../store/channel-audience.js";
import type { Tx } from "../../store/db.js";
import { getSubscriberIdsByRecipient } from "../../store/subscriptions.js";
import type { ChannelRow } from "../../store/types.js";

/** The audience of each channel (all in one realm), by channel id. */
export async function channelAudiences(tx: Tx, realmId: number, channels: readonly ChannelRow[]): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  if (channels.length === 0) return out;
  const users = await getActiveRealmUsers(tx, realmId);
  const roles = new Map(users.map((u) => [u.id, u.role]));
  const subscribers = await getSubscriberIdsByRecipient(tx, channels.map((c) => c.recipient_id as number));
  const privateChannels = channels.filter((c) => c.invite_only);
  const groupMembers = await getRecursiveGroupMembers(
    tx,
    privateChannels.flatMap((c) => [c.can_administer_channel_group_id, c.can_add_subscribers_group_id, c.can_subscribe_group_id] as number[]),
  );
  const admins = users.filter((u) => isRealmAdmin(u)).map((u) => u.id);
  const nonGuests = users.filter((u) => !isGuest(u)).map((u) => u.id);
  for (const c of channels) {
    const subs = subscribers.get(c.recipient_id as number) ?? [];
    if (c.is_web_public) {
      out.set(c.id, new Set(users.map((u) => u.id)));
    } else if (!c.invite_only) {
      out.set(c.id, new Set([...nonGuests, ...subs]));
    } else {
      const viaGroups = [c.can_administer_channel_group_id, c.can_add_subscribers_group_id, c.can_subscribe_group_id]
        .flatMap((g) => [...(groupMembers.get(g as number) ?? [])])
        .filter((id) => roles.has(id) && roles.get(id) !== ROLE.GUEST);
      out.set(c.id, new Set([...subs, ...admins, ...viaGroups]));
    }
  }
  return out;
}

export async function channelAudience(tx: Tx, channel: ChannelRow): Promise<Set<number>> {
  return (await channelAudiences(tx, channel.realm_id, [channel])).get(channel.id) as Set<number>;
}
