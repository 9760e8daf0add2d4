/**
 * Sending a user's due mobile pushes (Zulip's handle_push_notification and
 * handle_remove_push_notification): a new-message push for each message still unread, to every
 * device the user registered, E2EE client devices and legacy tokens alike; then the message counts
 * as shown on the devices (store: active_push_notifications), so reading it later sends "remove".
 */
import type { AppDeps } from "../../deps.js";
import { fullAvatarUrl } from "../../lib/avatar-urls.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { realmUrl } from "../../lib/realm-url.js";
import { requiresE2eePush } from "../../lib/realm-settings.js";
import { TRIGGER } from "../../policy/notifications.js";
import { getChannelsByRecipientIds, getRecipientMembers } from "../../store/channels.js";
import { listClientDevices } from "../../store/client-devices.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { getMessagesByIds, getUserMessageFlags } from "../../store/messages.js";
import { addActivePushes, type PendingNotificationRow } from "../../store/pending-notifications.js";
import { listPushDevices } from "../../store/push.js";
import { getRealmById } from "../../store/realms.js";
import { MESSAGE_TYPE, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { getRealmIdOfUser, getUserById, getUsersByIds } from "../../store/users.js";
import { e2eeTargets, notifyE2eeDevices, notifyLegacyDevices } from "../push/push-bouncer.js";
import { getGroupsByIds } from "../../store/groups.js";
import {
  e2eeMessagePayload,
  e2eeRemovePayload,
  legacyMessagePayloads,
  legacyRemovePayloads,
  type MentionedGroup,
  type PushIdentity,
  type PushMessage,
} from "./push-payloads.js";

/** What a push without content says instead (Zulip's redacted push content). */
const REDACTED_CONTENT = "<p>New message</p>";

interface Recipient {
  realm: RealmRow;
  user: UserRow;
  who: PushIdentity;
}

/** The realm, user and payload identity of a batch; null when the user or realm is gone. */
async function recipientOf(deps: AppDeps, tx: Tx, realmId: number, userId: number): Promise<Recipient | null> {
  const realm = await getRealmById(tx, realmId);
  const user = realm && !realm.deactivated ? await getUserById(tx, realm.id, userId) : undefined;
  if (!realm || !user || !user.is_active) return null;
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  return { realm, user, who: { realmId: realm.id, realmName: realm.name, realmUrl: url, server: deps.config.externalHost, userId } };
}

/** Where the user's devices are: E2EE client devices and legacy tokens. */
async function devicesOf(tx: Tx, userId: number) {
  return { e2ee: e2eeTargets(await listClientDevices(tx, userId)), legacy: await listPushDevices(tx, userId) };
}

async function pushMessageOf(deps: AppDeps, tx: Tx, r: Recipient, m: MessageRow): Promise<{ message: PushMessage; groupNames: string | null }> {
  const [sender] = await getUsersByIds(tx, r.realm.id, [m.sender_id]);
  const avatar = fullAvatarUrl(sender, deps.config.enableGravatar);
  const base = {
    id: m.id,
    time: Number(m.date_sent),
    renderedContent: m.rendered_content,
    sender: { id: sender.id, fullName: sender.full_name, email: sender.email, avatarUrl: avatar.startsWith("/") ? r.who.realmUrl + avatar : avatar },
  };
  if (m.type === MESSAGE_TYPE.CHANNEL) {
    const [channel] = await getChannelsByRecipientIds(tx, [m.recipient_id]);
    return { message: { ...base, where: { channelId: channel.id, channelName: channel.name, topic: m.subject } }, groupNames: null };
  }
  const participantIds = [...((await getRecipientMembers(tx, [m.recipient_id])).get(m.recipient_id) ?? [])].sort((a, b) => a - b);
  const others = participantIds.length > 2 ? await getUsersByIds(tx, r.realm.id, participantIds.filter((id) => id !== r.user.id)) : [];
  return { message: { ...base, where: { participantIds } }, groupNames: others.length > 0 ? others.map((u) => u.full_name).sort().join(", ") : null };
}

/** The group mention behind each message's push, by message id. */
async function mentionedGroupsOf(tx: Tx, realmId: number, rows: readonly PendingNotificationRow[]): Promise<Map<number, MentionedGroup>> {
  const withGroup = rows.filter((row) => row.trigger === TRIGGER.MENTION && row.mentioned_group_id !== null);
  const names = new Map((await getGroupsByIds(tx, realmId, [...new Set(withGroup.map((row) => Number(row.mentioned_group_id)))])).flatMap((g) => (g.name === null ? [] : [[g.id, g.name] as const])));
  const out = new Map<number, MentionedGroup>();
  for (const row of withGroup) {
    const name = names.get(Number(row.mentioned_group_id));
    if (name !== undefined) out.set(Number(row.message_id), { id: Number(row.mentioned_group_id), name });
  }
  return out;
}

export async function sendPushBatch(deps: AppDeps, rows: readonly PendingNotificationRow[]): Promise<void> {
  const tx = readTx(deps.store);
  const userId = rows[0].user_id;
  const ids = rows.map((r) => Number(r.message_id));
  const flags = await getUserMessageFlags(tx, userId, ids);
  // Read meanwhile, deleted, or no longer received: no push (Zulip checks the read flag too).
  const messages = (await getMessagesByIds(tx, ids)).filter((m) => flags.has(m.id) && (flags.get(m.id)! & FLAG_BITS.read) === 0);
  if (messages.length === 0) return;
  const r = await recipientOf(deps, tx, messages[0].realm_id, userId);
  if (!r) return;
  const devices = await devicesOf(tx, userId);
  if (devices.e2ee.length === 0 && devices.legacy.length === 0) return;
  const mentioned = new Set(rows.filter((row) => row.trigger === TRIGGER.MENTION).map((row) => Number(row.message_id)));
  const groups = await mentionedGroupsOf(tx, r.realm.id, rows);
  for (const m of messages) {
    const { message, groupNames } = await pushMessageOf(deps, tx, r, m);
    const group = groups.get(m.id) ?? null;
    await notifyE2eeDevices(deps.config, r.who.realmUrl, devices.e2ee, e2eeMessagePayload(r.who, message, group));
    // require_e2ee_push_notifications (FL 409): devices without E2EE get no message content.
    const legacy = requiresE2eePush(r.realm) ? { ...message, renderedContent: REDACTED_CONTENT } : message;
    await notifyLegacyDevices(deps.config, userId, devices.legacy, { ...legacyMessagePayloads(r.who, legacy, mentioned.has(m.id), groupNames, group) });
  }
  await transaction(deps.store, (t) => addActivePushes(t, userId, messages.map((m) => m.id)));
}

/** "remove" for messages whose push the devices show and that were read since. */
export async function sendRemoveBatch(deps: AppDeps, rows: readonly PendingNotificationRow[]): Promise<void> {
  const tx = readTx(deps.store);
  const userId = rows[0].user_id;
  const ids = rows.map((row) => Number(row.message_id));
  // The messages may be gone (read, then deleted): the realm comes from the user's messages left, or the user row.
  const [message] = await getMessagesByIds(tx, ids.slice(-1));
  const realmId = message?.realm_id ?? (await getRealmIdOfUser(tx, userId));
  if (realmId === null) return;
  const r = await recipientOf(deps, tx, realmId, userId);
  if (!r) return;
  const devices = await devicesOf(tx, userId);
  await notifyE2eeDevices(deps.config, r.who.realmUrl, devices.e2ee, e2eeRemovePayload(r.who, ids));
  await notifyLegacyDevices(deps.config, userId, devices.legacy, { ...legacyRemovePayloads(r.who, ids) });
}
