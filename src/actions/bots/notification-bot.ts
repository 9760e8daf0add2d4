/**
 * Notification Bot: the automated sender of Zulip's system notices (new-channel announcements,
 * "you were subscribed", topic-move notices). Zulip runs it as one cross-realm system bot; Parley
 * gives each realm its own bot account, created the first time a notice needs it. Like Zulip's
 * system bots it may post in any channel and message anyone, so its notices skip the posting,
 * topic-creation and direct-message permission checks that users' messages go through.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { Membership } from "../../policy/group-settings.js";
import { BOT_TYPE, ROLE } from "../../policy/roles.js";
import { NOTIFICATION_BOT, type SystemBot } from "../../policy/system-bots.js";
import type { Tx } from "../../store/db.js";
import { getSubscriberIds, isSubscribed } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { getUserByDeliveryEmail, getUserById } from "../../store/users.js";
import { directRecipientId } from "../messages/message-recipients.js";
import { doSendMessage, normalizeContent } from "../messages/send-message.js";
import { publishUserAdded } from "../users/user-events.js";
import { doCreateUser } from "../users/users.js";

const CLIENT = "Internal";

/**
 * The realm's account for a system bot (Notification Bot unless told otherwise), created (inside
 * the caller's transaction) if it does not exist yet; its creation is announced like any new
 * account's, so clients' user lists stay whole.
 */
export async function getSystemBot(deps: AppDeps, tx: Tx, realm: RealmRow, which: SystemBot = NOTIFICATION_BOT): Promise<UserRow> {
  const existing = await getUserByDeliveryEmail(tx, realm.id, which.email);
  if (existing) {
    // A human account holding the bot's address would make every notice come from that person.
    if (!existing.is_bot) throw new ApiError(`${which.name}'s address belongs to a user account.`);
    return existing;
  }
  const created = await doCreateUser(
    tx,
    realm,
    { email: which.email, fullName: which.name, password: null, role: ROLE.MEMBER, botType: BOT_TYPE.GENERIC, botOwnerId: null },
    deps.clock.now(),
  );
  const bot = (await getUserById(tx, realm.id, created.userId)) as UserRow;
  await publishUserAdded(deps, tx, bot);
  return bot;
}

/** The realm's Notification Bot. */
export function getNotificationBot(deps: AppDeps, tx: Tx, realm: RealmRow): Promise<UserRow> {
  return getSystemBot(deps, tx, realm, NOTIFICATION_BOT);
}

/** Zulip's silent mention of a user in notices: names the user without notifying them. */
export function silentMention(user: Pick<UserRow, "full_name" | "id">): string {
  return `@_**${user.full_name}|${user.id}**`;
}

/** Zulip's list of names in English: "A", "A and B", "A, B, and C". */
const LIST = new Intl.ListFormat("en", { style: "long", type: "conjunction" });

/** Zulip's get_user_mentions_for_display: the users' silent mentions as one English list. */
export function mentionList(users: ReadonlyArray<Pick<UserRow, "full_name" | "id">>): string {
  return LIST.format(users.map(silentMention));
}

/** Zulip's STREAM_EVENTS_NOTIFICATION_TOPIC_NAME: where notices about a channel itself go. */
export const CHANNEL_EVENTS_TOPIC = "channel events";

export interface NoticeOptions {
  /** The user whose action caused the notice: their copy starts read, and #channel links render as they see them. */
  actingUser: UserRow;
  /** Whose view decides which #channel links render, when not the acting user's. */
  renderAsUserId?: number;
  /** Further recipients whose copy starts read (e.g. by their resolved-topic notice setting). */
  readByUserIds?: readonly number[];
  /** Every copy starts read (Zulip's limit_unread_user_ids=set()). */
  readByEveryone?: boolean;
  /** Post even though the channel is archived: the notice that it was (Zulip's archived_channel_notice). */
  archivedChannelNotice?: boolean;
  /** The system bot that sends it, when not Notification Bot (Welcome Bot's first messages). */
  from?: SystemBot;
}

/**
 * Posts a notice in a channel (to its subscribers). Channels that allow only the empty topic get
 * it there, as Zulip does for its channel-event notices. Archived channels get none, except the
 * notice of their archiving.
 */
export async function sendChannelNotice(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  channel: ChannelRow,
  topic: string,
  content: string,
  opts: NoticeOptions,
): Promise<number | null> {
  if (channel.deactivated && !opts.archivedChannelNotice) return null;
  const bot = await getSystemBot(deps, tx, realm, opts.from ?? NOTIFICATION_BOT);
  const recipientId = channel.recipient_id as number;
  const policy = channel.topics_policy === "inherit" ? realm.topics_policy : channel.topics_policy;
  const subscribers = await getSubscriberIds(tx, recipientId);
  const delivery = {
    recipientId,
    channel,
    topic: policy === "empty_topic_only" ? "" : topic,
    userIds: [...new Set([...subscribers, bot.id])],
    senderSubscribed: await isSubscribed(tx, bot.id, recipientId),
  };
  const readBy = opts.readByEveryone ? delivery.userIds : [opts.actingUser.id, ...(opts.readByUserIds ?? [])];
  return doSendMessage(deps, tx, realm, bot, await Membership.load(tx, bot), delivery, normalizeContent(content), {
    client: CLIENT,
    readByUserIds: readBy,
    renderAsUserId: opts.renderAsUserId ?? opts.actingUser.id,
  });
}

/** Sends a notice as a direct message from the bot to one user. */
export async function sendDirectNotice(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  recipient: UserRow,
  content: string,
  opts: NoticeOptions,
): Promise<number> {
  const bot = await getSystemBot(deps, tx, realm, opts.from);
  const participants = [...new Set([bot.id, recipient.id])];
  const delivery = {
    recipientId: await directRecipientId(tx, realm.id, participants),
    channel: null,
    topic: "",
    userIds: participants,
    senderSubscribed: true,
  };
  return doSendMessage(deps, tx, realm, bot, await Membership.load(tx, bot), delivery, normalizeContent(content), {
    client: CLIENT,
    renderAsUserId: opts.actingUser.id,
  });
}
