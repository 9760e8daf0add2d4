/**
 * Zulip's mobile notification payloads, built from what the notification worker loaded:
 * - E2EE (https://zulip.com/api/mobile-notifications, FL 413, `recipient_user_ids` FL 429): the JSON
 *   encrypted to each device's push key; `type` "message" or "remove";
 * - legacy, for devices registered with plain APNs/FCM tokens (Zulip's get_message_payload_gcm /
 *   _apns and get_remove_payload_gcm / _apns): FCM data with `event`, and an APNs alert with the
 *   same data under custom.zulip.
 * Content is the message's rendered HTML as plain text, cut at 200 characters (truncate_content).
 */
import { htmlToText, truncateForPush } from "../../lib/html-text.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../../lib/topics.js";

export interface PushIdentity {
  realmId: number;
  realmName: string;
  realmUrl: string;
  /** The server's host (legacy payloads' `server`). */
  server: string;
  userId: number;
}

export interface PushMessage {
  id: number;
  time: number;
  renderedContent: string;
  sender: { id: number; fullName: string; email: string; avatarUrl: string };
  /** A channel message's place, or a direct message's participants (everyone, sorted). */
  where: { channelId: number; channelName: string; topic: string } | { participantIds: number[] };
}

/** The group whose mention brought the push (Zulip's mentioned_user_group_id / _name), if any. */
export interface MentionedGroup {
  id: number;
  name: string;
}

const groupFields = (group: MentionedGroup | null | undefined) => (group ? { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name } : {});

/** Zulip caps a remove at the newest 200 ids (APNs' 4 KB payload limit). */
export const MAX_REMOVE_IDS = 200;

const identityE2ee = (who: PushIdentity) => ({ realm_url: who.realmUrl, realm_name: who.realmName, user_id: who.userId });

export function e2eeMessagePayload(who: PushIdentity, m: PushMessage, group: MentionedGroup | null = null): Record<string, unknown> {
  const where =
    "channelId" in m.where
      ? { recipient_type: "channel", channel_id: m.where.channelId, channel_name: m.where.channelName, topic: m.where.topic }
      : { recipient_type: "direct", recipient_user_ids: m.where.participantIds };
  return {
    type: "message",
    ...identityE2ee(who),
    message_id: m.id,
    time: m.time,
    content: truncateForPush(htmlToText(m.renderedContent)).content,
    sender_id: m.sender.id,
    sender_full_name: m.sender.fullName,
    sender_avatar_url: m.sender.avatarUrl,
    ...where,
    ...groupFields(group),
  };
}

export function e2eeRemovePayload(who: PushIdentity, messageIds: readonly number[]): Record<string, unknown> {
  return { type: "remove", ...identityE2ee(who), message_ids: [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVE_IDS) };
}

const identityLegacy = (who: PushIdentity) => ({
  server: who.server,
  realm_id: who.realmId,
  realm_name: who.realmName,
  realm_uri: who.realmUrl,
  realm_url: who.realmUrl,
  user_id: who.userId,
});

function legacyWhere(m: PushMessage): Record<string, unknown> {
  if ("channelId" in m.where) return { recipient_type: "stream", stream: m.where.channelName, stream_id: m.where.channelId, topic: m.where.topic };
  // pm_users only for group DMs: a 1:1 conversation is known from sender_id and user_id.
  return m.where.participantIds.length > 2 ? { recipient_type: "private", pm_users: m.where.participantIds.join(",") } : { recipient_type: "private" };
}

/** The APNs alert title: the conversation (Zulip's get_apns_alert_title). */
function alertTitle(m: PushMessage, groupNames: string | null): string {
  if ("channelId" in m.where) return `#${m.where.channelName} > ${m.where.topic === "" ? EMPTY_TOPIC_DISPLAY_NAME : m.where.topic}`;
  return groupNames ?? m.sender.fullName;
}

export interface LegacyPayloads {
  gcm_payload: Record<string, unknown>;
  apns_payload: Record<string, unknown>;
  gcm_options: { priority: "high" | "normal" };
}

export function legacyMessagePayloads(who: PushIdentity, m: PushMessage, mentioned: boolean, groupNames: string | null, group: MentionedGroup | null = null): LegacyPayloads {
  const { content, truncated } = truncateForPush(htmlToText(m.renderedContent));
  const common = { ...identityLegacy(who), sender_id: m.sender.id, sender_email: m.sender.email, time: m.time, ...legacyWhere(m), ...groupFields(group) };
  // Zulip's get_apns_alert_subtitle: "X mentioned @group:" for a group mention, "X mentioned you:" for a personal one.
  const how = group ? ` mentioned @${group.name}` : mentioned ? " mentioned you" : "";
  const subtitle = "channelId" in m.where || groupNames ? `${m.sender.fullName}${how}:` : "";
  return {
    gcm_payload: {
      ...common,
      event: "message",
      zulip_message_id: m.id,
      content,
      content_truncated: truncated,
      sender_full_name: m.sender.fullName,
      sender_avatar_url: m.sender.avatarUrl,
    },
    apns_payload: {
      alert: { title: alertTitle(m, groupNames), subtitle, body: content },
      sound: "default",
      badge: 0,
      custom: { zulip: { ...common, message_ids: [m.id] } },
    },
    gcm_options: { priority: "high" },
  };
}

export function legacyRemovePayloads(who: PushIdentity, messageIds: readonly number[]): LegacyPayloads {
  const ids = [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVE_IDS);
  const data = { ...identityLegacy(who), event: "remove", zulip_message_ids: ids.join(",") };
  return {
    gcm_payload: { ...data, zulip_message_id: ids[0] },
    apns_payload: { badge: 0, custom: { zulip: data } },
    gcm_options: { priority: "normal" },
  };
}

/** The legacy test notification (POST /mobile_push/test_notification; `event` "test" since FL 234). */
export function legacyTestPayloads(who: PushIdentity, time: number): LegacyPayloads {
  const data = { ...identityLegacy(who), event: "test", time };
  return {
    gcm_payload: data,
    apns_payload: {
      alert: { title: "Test notification", body: `This is a test notification from ${who.realmName} (${who.realmUrl}).` },
      sound: "default",
      custom: { zulip: data },
    },
    gcm_options: { priority: "high" },
  };
}
