/**
 * The client's state: what POST /register returned (issue 10), reshaped for the views (users and
 * channels by id, unread places, topics per channel, who is typing) and kept current by events
 * (apply-event.ts). Every change replaces the changed parts, so views re-render by identity.
 */
import type { Channel, ChannelFolder, RealmEmoji, RecentDirectConversation, RegisterResponse, Subscription, TopicInfo, User, UserGroup } from "./types";
import { presenceFromRegister, type PresenceState } from "./presence";
import { unreadFromRegister, type UnreadState } from "./unread";

/** Someone typing in a conversation (spec 4.1), until `expiresAt` unless a new start comes. */
export interface TypingEntry {
  senderId: number;
  /** `stream:<id>:<topic lowercased>` or `dm:<dm key>`; see conversationKey. */
  conversation: string;
  expiresAt: number;
}

export interface TypingPeriods {
  startedWaitMs: number;
  stoppedWaitMs: number;
  startedExpiryMs: number;
}

export interface ClientState {
  /** The whole register response, with the event types the state below does not model applied. */
  register: RegisterResponse;
  userId: number;
  /** realm_* settings from register, updated by realm update / update_dict events. */
  realm: Record<string, unknown>;
  userSettings: Record<string, unknown>;
  users: ReadonlyMap<number, User>;
  /** Every channel the user can see, subscribed or not. */
  channels: ReadonlyMap<number, Channel>;
  subscriptions: ReadonlyMap<number, Subscription>;
  channelFolders: readonly ChannelFolder[];
  userGroups: readonly UserGroup[];
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  unread: UnreadState;
  starred: ReadonlySet<number>;
  recentDms: readonly RecentDirectConversation[];
  /** Topics of a channel, newest first, once loaded (GET /users/me/{stream_id}/topics). */
  topics: ReadonlyMap<number, readonly TopicInfo[]>;
  typing: readonly TypingEntry[];
  typingPeriods: TypingPeriods;
  maxFileUploadSizeMib: number;
  /** Who is active, idle or offline (presence.ts). */
  presence: PresenceState;
}

export function conversationKey(target: { streamId: number; topic: string } | { dmKey: string }): string {
  return "dmKey" in target ? `dm:${target.dmKey}` : `stream:${target.streamId}:${target.topic.toLowerCase()}`;
}

/** The realm_* keys of register (Zulip names realm settings with that prefix in /register). */
function realmSettings(register: RegisterResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(register).filter(([key]) => key.startsWith("realm_") && key !== "realm_users"));
}

export function stateFromRegister(register: RegisterResponse): ClientState {
  const everyone = [...register.realm_users, ...(register.realm_non_active_users ?? []), ...(register.cross_realm_bots ?? [])];
  const channels = new Map<number, Channel>();
  for (const c of [...register.never_subscribed, ...register.unsubscribed, ...register.subscriptions]) channels.set(c.stream_id, c);
  return {
    register,
    userId: register.user_id,
    realm: realmSettings(register),
    userSettings: register.user_settings ?? {},
    users: new Map(everyone.map((u) => [u.user_id, u])),
    channels,
    subscriptions: new Map(register.subscriptions.map((s) => [s.stream_id, s])),
    channelFolders: register.channel_folders ?? [],
    userGroups: register.realm_user_groups ?? [],
    realmEmoji: register.realm_emoji ?? {},
    unread: unreadFromRegister(register.unread_msgs, register.user_id),
    starred: new Set(register.starred_messages),
    recentDms: register.recent_private_conversations ?? [],
    topics: new Map(),
    typing: [],
    typingPeriods: {
      startedWaitMs: register.server_typing_started_wait_period_milliseconds ?? 10_000,
      stoppedWaitMs: register.server_typing_stopped_wait_period_milliseconds ?? 5_000,
      startedExpiryMs: register.server_typing_started_expiry_period_milliseconds ?? 15_000,
    },
    maxFileUploadSizeMib: register.max_file_upload_size_mib ?? 25,
    presence: presenceFromRegister(register, Date.now()),
  };
}

/** The signed-in user's record. */
export function me(state: ClientState): User | undefined {
  return state.users.get(state.userId);
}

/** Zulip's role values (100 owner, 200 administrator, 300 moderator, 400 member, 600 guest). */
export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** Whether the user is an administrator or owner, following role changes seen in realm_user events. */
export function isAdmin(state: ClientState): boolean {
  return (me(state)?.role ?? ROLE.member) <= ROLE.admin;
}

export function userName(state: ClientState, userId: number): string {
  return state.users.get(userId)?.full_name ?? `Unknown user ${userId}`;
}

/** Zulip's system bot addresses (Notification Bot); Parley keeps it as a bot of each realm. */
const SYSTEM_BOT_EMAILS = new Set(["notification-bot@zulip.com"]);

/** Whether a user is a system bot, which the server owns: Zulip lists these in cross_realm_bots. */
export function isSystemBot(user: User): boolean {
  return user.is_system_bot === true || (user.is_bot && (SYSTEM_BOT_EMAILS.has(user.email.toLowerCase()) || SYSTEM_BOT_EMAILS.has((user.delivery_email ?? "").toLowerCase())));
}

/** Zulip's topic visibility policies (zulip-openapi.yaml, user_topic). */
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

/**
 * Whether the combined feed leaves a message out, as the server's `in:home` does: a muted topic,
 * or a muted channel unless the topic is unmuted or followed.
 */
export function mutedInFeed(state: ClientState, message: { type: string; stream_id?: number; subject: string }): boolean {
  if (message.type !== "stream" || message.stream_id === undefined) return false;
  const topic = message.subject.toLowerCase();
  const entry = ((state.register.user_topics ?? []) as Array<{ stream_id: number; topic_name: string; visibility_policy: number }>).find(
    (t) => t.stream_id === message.stream_id && t.topic_name.toLowerCase() === topic,
  );
  if (entry?.visibility_policy === MUTED) return true;
  return state.subscriptions.get(message.stream_id)?.is_muted === true && entry?.visibility_policy !== UNMUTED && entry?.visibility_policy !== FOLLOWED;
}
