/**
 * Whether a new message deserves a desktop notification, following Zulip's web app
 * (web/src/message_notifications.ts there: message_is_notifiable, should_send_desktop_notification)
 * and the user's settings (zulip-openapi.yaml user_settings and subscription objects):
 * - never for one's own messages or a muted sender's;
 * - a direct mention of the user always passes the muting checks; otherwise a muted topic, or a
 *   muted channel whose topic is not unmuted or followed, is silent;
 * - a channel message notifies when the channel's desktop_notifications (null: the user's
 *   enable_stream_desktop_notifications) is on, or a followed topic's with
 *   enable_followed_topic_desktop_notifications;
 * - otherwise only with enable_desktop_notifications: direct messages, mentions of the user, and
 *   @all/@topic mentions when wildcard_mentions_notify (the channel's, else the user's) allows.
 */
import type { ClientState } from "./client-state";
import type { Message } from "./types";

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

function topicPolicy(state: ClientState, streamId: number, topic: string): number | undefined {
  const lower = topic.toLowerCase();
  return ((state.register.user_topics ?? []) as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>).find(
    (t) => t.stream_id === streamId && t.topic_name.toLowerCase() === lower,
  )?.visibility_policy;
}

function mutedSender(state: ClientState, senderId: number): boolean {
  return ((state.register.muted_users ?? []) as Array<{ id: number }>).some((m) => m.id === senderId);
}

/** A subscription's own setting, or the user's default when it is null (notification_settings_null). */
function channelSetting(state: ClientState, streamId: number, own: string, fallback: string): boolean {
  const value = (state.subscriptions.get(streamId) as Record<string, unknown> | undefined)?.[own];
  return typeof value === "boolean" ? value : state.userSettings[fallback] === true;
}

export function shouldNotifyDesktop(state: ClientState, message: Message, flags: readonly string[]): boolean {
  if (message.sender_id === state.userId || flags.includes("read") || mutedSender(state, message.sender_id)) return false;
  const direct = flags.includes("mentioned");
  const wildcard = flags.includes("stream_wildcard_mentioned") || flags.includes("topic_wildcard_mentioned");
  const settings = state.userSettings;
  if (message.type !== "stream" || message.stream_id === undefined) return settings.enable_desktop_notifications === true;

  const streamId = message.stream_id;
  const policy = topicPolicy(state, streamId, message.subject);
  const channelMuted = state.subscriptions.get(streamId)?.is_muted === true;
  if (!direct && (policy === MUTED || (channelMuted && policy !== UNMUTED && policy !== FOLLOWED))) return false;

  if (channelSetting(state, streamId, "desktop_notifications", "enable_stream_desktop_notifications")) return true;
  if (policy === FOLLOWED && settings.enable_followed_topic_desktop_notifications === true) return true;
  if (settings.enable_desktop_notifications !== true) return false;
  if (direct) return true;
  return wildcard && channelSetting(state, streamId, "wildcard_mentions_notify", "wildcard_mentions_notify");
}
