/**
 * Resolving where a message goes (send-message's `type` + `to`): a channel by name or id, or a
 * direct-message conversation by user ids or emails, addressed to the direct-message group of its
 * participants.
 */
import { channelIdNotFound, channelNameNotFound, accessChannel } from "../../access/channels.js";
import { ApiError, invalidParam } from "../../errors.js";
import type { Membership } from "../../policy/group-settings.js";
import { RECIPIENT, getChannelById, getChannelByName, insertRecipient } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { directGroupKey, getDirectGroupRecipientId } from "../../store/direct-messages.js";
import { subscribeUsers } from "../../store/subscriptions.js";
import type { ChannelRow, UserRow } from "../../store/types.js";
import { sql } from "kysely";

/**
 * Ids are safe integers: past 2^53 a number has lost digits (32 nines read 1e+31, which the
 * database cannot even parse as an id: a 500 on PostgreSQL, found by fuzzing).
 */
const isId = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x);

/** `to` for a channel: its name, its id, or a JSON list holding one name. */
export function parseChannelTo(to: string): string | number {
  const trimmed = to.trim();
  if (/^\d+$/.test(trimmed)) {
    if (!isId(Number(trimmed))) throw new ApiError("Invalid channel ID");
    return Number(trimmed);
  }
  if (trimmed.startsWith("[") || trimmed.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const item = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed;
      if (typeof item === "string" || isId(item)) return item;
    } catch {
      // Not JSON: a channel whose name starts with a bracket or quote.
    }
  }
  return to;
}

/** `to` for direct messages: a JSON list of ids or emails, or comma-separated emails. */
export function parseDirectTo(to: string): Array<string | number> {
  const trimmed = to.trim();
  if (trimmed.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new ApiError("Invalid data type for recipients");
    }
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === "string" || isId(x))) {
      throw new ApiError("Invalid data type for recipients");
    }
    return parsed as Array<string | number>;
  }
  if (/^\d+$/.test(trimmed)) {
    if (!isId(Number(trimmed))) throw new ApiError("Invalid data type for recipients");
    return [Number(trimmed)];
  }
  return trimmed.split(",").map((s) => s.trim()).filter((s) => s !== "");
}

export async function resolveChannelTo(tx: Tx, user: UserRow, to: string | number, membership: Membership): Promise<ChannelRow> {
  if (typeof to === "number") {
    const channel = await getChannelById(tx, user.realm_id, to);
    return (await accessChannel(tx, user, channel, () => channelIdNotFound(to), { membership })).channel;
  }
  const channel = await getChannelByName(tx, user.realm_id, to);
  return (await accessChannel(tx, user, channel, () => channelNameNotFound(to), { membership })).channel;
}

/**
 * The recipient users of a direct message, validated (active, same realm). `checkAccess` runs
 * before the activity check, as Zulip's check_sender_can_access_recipients does, so a limited
 * guest learns nothing of an inaccessible user from "is no longer using Zulip".
 */
export async function resolveDirectRecipients(
  tx: Tx,
  sender: UserRow,
  to: Array<string | number>,
  checkAccess?: (recipients: UserRow[]) => Promise<void>,
): Promise<UserRow[]> {
  if (to.length === 0) throw new ApiError("Message must have recipients");
  const ids = to.filter((x): x is number => typeof x === "number");
  const emails = to.filter((x): x is string => typeof x === "string").map((e) => e.toLowerCase());
  const rows = await tx.db
    .selectFrom("users")
    .selectAll()
    .where("realm_id", "=", sender.realm_id)
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb("id", "in", ids)] : []),
        ...(emails.length ? [eb(sql<string>`lower(delivery_email)`, "in", emails), eb(sql<string>`lower(email)`, "in", emails)] : []),
      ]),
    )
    .execute();
  for (const id of ids) if (!rows.some((u) => u.id === id)) throw new ApiError(`Invalid user ID ${id}`);
  for (const email of emails) {
    if (!rows.some((u) => u.delivery_email.toLowerCase() === email || u.email.toLowerCase() === email)) {
      throw new ApiError(`Invalid email '${email}'`);
    }
  }
  await checkAccess?.(rows);
  for (const u of rows) {
    if (!u.is_active) throw new ApiError(`'${u.email}' is no longer using Zulip.`);
  }
  return rows;
}

/**
 * The recipient row of the direct-message conversation among `participantIds` (the sender
 * included). Every conversation is a direct-message group of its participants, 1:1 ones (two
 * members) and messages to oneself (one) too, as in Zulip since feature level 482: both directions
 * of a 1:1 conversation share one `recipient_id`.
 */
export async function directRecipientId(tx: Tx, realmId: number, participantIds: number[]): Promise<number> {
  const existing = await getDirectGroupRecipientId(tx, realmId, participantIds);
  if (existing !== undefined) return existing;
  const sorted = [...new Set(participantIds)].sort((a, b) => a - b);
  // Two first messages of one conversation at once: the second waits for the first to commit,
  // inserts nothing and finds the group the first made.
  const inserted = await tx.db
    .insertInto("direct_message_groups")
    .values({ realm_id: realmId, member_key: directGroupKey(sorted), group_size: sorted.length })
    .onConflict((oc) => oc.columns(["realm_id", "member_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted === undefined) return (await getDirectGroupRecipientId(tx, realmId, sorted)) as number;
  const groupId = inserted.id;
  const recipientId = await insertRecipient(tx, RECIPIENT.DIRECT_MESSAGE_GROUP, groupId);
  await subscribeUsers(tx, recipientId, sorted, () => "#c2c2c2");
  return recipientId;
}

export function checkMessageParams(type: string): "channel" | "direct" {
  if (type === "stream" || type === "channel") return "channel";
  if (type === "private" || type === "direct") return "direct";
  throw invalidParam("Invalid type");
}
