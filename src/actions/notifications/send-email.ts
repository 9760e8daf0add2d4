/**
 * Sending a user's batch of missed-message emails once it falls due (Zulip's
 * handle_missedmessage_emails): messages read, deleted or no longer received meanwhile drop out;
 * what remains goes as one email per conversation (a channel topic, or a direct message
 * conversation), through the server's mail transport. Each email carries a stable key made of the
 * user and its messages, so that an email sent again after a crash is recognisably the same one
 * (same Message-ID; the .eml transport overwrites its file).
 */
import type { AppDeps } from "../../deps.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { groupBy } from "../../lib/group-by.js";
import { realmUrl } from "../../lib/realm-url.js";
import { settingOf } from "../../lib/user-settings.js";
import { mailTransport, type MailMessage } from "../../mail/transport.js";
import { TRIGGER, type NotificationTrigger } from "../../policy/notifications.js";
import { getGroupsByIds } from "../../store/groups.js";
import { getChannelsByRecipientIds, getRecipientMembers } from "../../store/channels.js";
import { readTx, type Tx } from "../../store/db.js";
import { getMessagesByIds, getUserMessageFlags } from "../../store/messages.js";
import type { PendingNotificationRow } from "../../store/pending-notifications.js";
import { getRealmById } from "../../store/realms.js";
import { MESSAGE_TYPE, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { getUserById, getUsersByIds } from "../../store/users.js";
import { composeMissedMessageEmail, type EmailConversation } from "./email-content.js";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe-links.js";

/** Zulip's realm_name_in_email_notifications_policy: 2 "always" prefixes subjects ("automatic" does when one has several accounts, never here). */
const REALM_NAME_ALWAYS = 2;

async function conversationOf(tx: Tx, realm: RealmRow, user: UserRow, first: MessageRow): Promise<EmailConversation | null> {
  if (first.type === MESSAGE_TYPE.CHANNEL) {
    const [channel] = await getChannelsByRecipientIds(tx, [first.recipient_id]);
    return channel ? { kind: "channel", channelId: channel.id, channelName: channel.name, topic: first.subject } : null;
  }
  const participantIds = (await getRecipientMembers(tx, [first.recipient_id])).get(first.recipient_id) ?? [user.id];
  const others = await getUsersByIds(tx, realm.id, participantIds.filter((id) => id !== user.id));
  return { kind: "direct", participantIds, otherNames: others.map((u) => u.full_name).sort() };
}

/** The emails of one batch, one per conversation; none when everything was read meanwhile. */
export async function composeBatch(deps: AppDeps, tx: Tx, rows: readonly PendingNotificationRow[]): Promise<MailMessage[]> {
  const userId = rows[0].user_id;
  const triggers = new Map(rows.map((r) => [Number(r.message_id), r.trigger as NotificationTrigger]));
  const flags = await getUserMessageFlags(tx, userId, [...triggers.keys()]);
  const messages = (await getMessagesByIds(tx, [...triggers.keys()])).filter((m) => flags.has(m.id) && (flags.get(m.id)! & FLAG_BITS.read) === 0);
  if (messages.length === 0) return [];
  const realm = await getRealmById(tx, messages[0].realm_id);
  const user = realm && !realm.deactivated ? await getUserById(tx, realm.id, userId) : undefined;
  if (!realm || !user || !user.is_active) return [];
  const senders = new Map((await getUsersByIds(tx, realm.id, [...new Set(messages.map((m) => m.sender_id))])).map((u) => [u.id, u.full_name]));
  const conversations = groupBy(messages, (m) => (m.type === MESSAGE_TYPE.CHANNEL ? `${m.recipient_id}:${m.subject.toLowerCase()}` : String(m.recipient_id)), (m) => m);
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  const unsubscribe = unsubscribeUrl(deps, realm, user, "missed_messages");
  // Mentions of a group name the group (the email's reason), when no personal mention came first.
  const groupIds = [...new Set(rows.filter((r) => r.trigger === TRIGGER.MENTION && r.mentioned_group_id !== null).map((r) => Number(r.mentioned_group_id)))];
  const groupNames = new Map((await getGroupsByIds(tx, realm.id, groupIds)).map((g) => [g.id, g.name]));
  const groupOf = new Map(rows.map((r) => [Number(r.message_id), r.mentioned_group_id === null ? null : Number(r.mentioned_group_id)]));
  const mentionedGroupName = (group: readonly MessageRow[]): string | null => {
    const mentions = group.filter((m) => triggers.get(m.id) === TRIGGER.MENTION);
    const ids = new Set(mentions.map((m) => groupOf.get(m.id) ?? null));
    // Named only when every mention in the conversation came from the same group.
    const [only] = [...ids];
    return ids.size === 1 && only !== null ? (groupNames.get(only) ?? null) : null;
  };
  const mails: MailMessage[] = [];
  for (const group of conversations.values()) {
    const conversation = await conversationOf(tx, realm, user, group[0]);
    if (!conversation) continue;
    const email = composeMissedMessageEmail({
      realmName: realm.name,
      realmUrl: url,
      realmNameInSubject: settingOf(user.settings, "realm_name_in_email_notifications_policy") === REALM_NAME_ALWAYS,
      includeContent: settingOf(user.settings, "message_content_in_email_notifications") !== false,
      conversation,
      messages: group.map((m) => ({ id: m.id, senderName: senders.get(m.sender_id) ?? "Unknown user", html: m.rendered_content })),
      triggers: group.map((m) => triggers.get(m.id)!),
      unsubscribeUrl: unsubscribe,
      mentionedGroupName: mentionedGroupName(group),
    });
    const senderNames = [...new Set(group.map((m) => senders.get(m.sender_id)))];
    const fromName = senderNames.length === 1 ? `${senderNames[0]} (${realm.name})` : `${realm.name} notifications`;
    mails.push({
      from: `"${fromName.replace(/["\\]/g, "")}" <${deps.config.mailFrom}>`,
      to: user.delivery_email,
      subject: email.subject,
      text: email.text,
      html: email.html,
      date: new Date(deps.clock.now() * 1000),
      messageKey: `missed-${user.id}-${group[0].id}-${group[group.length - 1].id}`,
      headers: unsubscribeHeaders(unsubscribe),
    });
  }
  return mails;
}

/** Sends a claimed batch; throws when the transport fails (the rows are then tried again). */
export async function sendEmailBatch(deps: AppDeps, rows: readonly PendingNotificationRow[]): Promise<void> {
  const mails = await composeBatch(deps, readTx(deps.store), rows);
  const transport = mailTransport(deps.config);
  for (const mail of mails) await transport.send(mail);
}
