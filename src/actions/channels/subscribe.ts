/**
 * POST /users/me/subscriptions: subscribe users (`principals`, else the caller) to channels by
 * name, creating the missing ones with the same rules as POST /channels/create. Existing channels
 * need content access (else they are "unauthorized"), and subscribing others needs the
 * add-subscribers permission. Responses key users by id string (since FL 289).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, insufficientPermission, invalidUser } from "../../errors.js";
import { checkChannelName, checkDescriptionLength, normalizeDescription } from "../../policy/channel-settings.js";
import { canReadChannel, hasAddSubscribersPermission } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { isGuest } from "../../policy/roles.js";
import { getChannelsByNames } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getSubscribedChannelIds } from "../../store/subscriptions.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { getUsersByEmails } from "../../store/users.js";
import {
  activeUsersByIds,
  announceNewChannels,
  checkNewChannelSettings,
  doCreateChannel,
  notAllowedForGuests,
  type NewChannelSettings,
} from "./create-channel.js";
import { sendDirectNotice, silentMention } from "../bots/notification-bot.js";
import { doAddSubscriptions, type SubscriptionPair } from "./subscriptions-add.js";

/** Zulip's max_bulk_new_subscription_messages: above it, nobody gets a "you were subscribed" message. */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

export interface SubscriptionEntry {
  name: string;
  description?: string;
  color?: string;
}

export interface SubscribeInput {
  entries: SubscriptionEntry[];
  principals?: Array<string | number>;
  authorizationErrorsFatal: boolean;
  announce: boolean;
  sendNewSubscriptionMessages: boolean;
  /** Applied only to the channels this request creates. */
  settings: NewChannelSettings;
}

/** `principals`: user ids or emails of active users of the realm; anything else is "No such user". */
export async function resolvePrincipals(tx: Tx, realm: RealmRow, principals: ReadonlyArray<string | number>): Promise<UserRow[]> {
  const ids = principals.filter((p): p is number => typeof p === "number");
  const emails = principals.filter((p): p is string => typeof p === "string");
  const byId = await activeUsersByIds(tx, realm, ids);
  const byEmail = await getUsersByEmails(tx, realm.id, emails);
  for (const email of emails) {
    const lower = email.toLowerCase();
    const user = byEmail.find((u) => u.email.toLowerCase() === lower || u.delivery_email.toLowerCase() === lower);
    if (!user?.is_active) throw invalidUser();
  }
  const users = new Map([...byId, ...byEmail].map((u) => [u.id, u]));
  return [...users.values()];
}

function keyedByUser(pairs: readonly SubscriptionPair[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { user, channel } of pairs) (out[String(user.id)] ??= []).push(channel.name);
  return out;
}

export async function checkSubscribe(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, input: SubscribeInput): Promise<Record<string, unknown>> {
  if (isGuest(actor)) throw notAllowedForGuests();
  const entries = new Map<string, SubscriptionEntry>();
  for (const entry of input.entries) {
    const name = entry.name.trim();
    checkChannelName(name);
    const description = normalizeDescription(entry.description ?? "");
    checkDescriptionLength(description);
    if (!entries.has(name.toLowerCase())) entries.set(name.toLowerCase(), { ...entry, name, description });
  }
  const existing = await getChannelsByNames(tx, realm.id, [...entries.values()].map((e) => e.name));
  const existingByName = new Map(existing.map((c) => [c.name.toLowerCase(), c]));
  const missing = [...entries.entries()].filter(([key]) => !existingByName.has(key)).map(([, e]) => e);

  const membership = await Membership.load(tx, actor);
  const subscribed = new Set(await getSubscribedChannelIds(tx, actor.id));
  const targets = input.principals?.length ? await resolvePrincipals(tx, realm, input.principals) : [actor];
  const subscribingOthers = targets.some((u) => u.id !== actor.id);
  const ordered = [...entries.keys()].map((key) => existingByName.get(key)).filter((c): c is ChannelRow => c !== undefined);
  const unauthorized = ordered.filter((c) => !canReadChannel({ membership, subscribed: subscribed.has(c.id) }, c));
  if (unauthorized.length > 0 && input.authorizationErrorsFatal) throw new ApiError(`Unable to access channel (${unauthorized[0].name}).`);
  const authorized = ordered.filter((c) => !unauthorized.includes(c));
  const viewer = (c: ChannelRow) => ({ membership, subscribed: subscribed.has(c.id) });
  if (subscribingOthers && authorized.some((c) => !hasAddSubscribersPermission(viewer(c), c, realm.can_add_subscribers_group_id))) {
    throw insufficientPermission();
  }

  const created: ChannelRow[] = [];
  if (missing.length > 0) {
    const checked = await checkNewChannelSettings(deps, tx, realm, membership, input.settings);
    for (const entry of missing) {
      created.push(await doCreateChannel(deps, tx, realm, membership, { ...input.settings, name: entry.name, description: entry.description ?? "" }, checked));
    }
  }
  if (subscribingOthers && created.length > 0) {
    // Reloaded: the creator may now belong to the new channels' anonymous groups.
    const creatorNow = await Membership.load(tx, actor);
    const allowed = (c: ChannelRow) => hasAddSubscribersPermission({ membership: creatorNow, subscribed: false }, c, realm.can_add_subscribers_group_id);
    if (!created.every(allowed)) throw insufficientPermission();
  }
  const channels = [...authorized, ...created];
  const colors = new Map<number, string>();
  for (const c of channels) {
    const color = entries.get(c.name.toLowerCase())?.color;
    if (color !== undefined) colors.set(c.id, color);
  }
  const createdIds = new Set(created.map((c) => c.id));
  const result = await doAddSubscriptions(deps, tx, realm, actor, channels, targets, { colors, createdChannelIds: createdIds });
  if (input.announce) await announceNewChannels(deps, tx, realm, actor, created);
  const out: Record<string, unknown> = { subscribed: keyedByUser(result.subscribed), already_subscribed: keyedByUser(result.alreadySubscribed) };
  if (!input.authorizationErrorsFatal) out.unauthorized = unauthorized.map((c) => c.name);
  if (input.sendNewSubscriptionMessages) {
    out.new_subscription_messages_sent = await notifyNewSubscribers(deps, tx, realm, actor, result.subscribed, createdIds);
  }
  return out;
}

/**
 * "You were subscribed" direct messages from Notification Bot to the humans someone else subscribed
 * to existing channels (not to channels this request created); none at all above the bulk limit.
 * Returns whether they were sent.
 */
async function notifyNewSubscribers(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  actor: UserRow,
  subscribed: readonly SubscriptionPair[],
  createdIds: ReadonlySet<number>,
): Promise<boolean> {
  const byUser = new Map<number, { user: UserRow; names: string[] }>();
  for (const { user, channel } of subscribed) {
    if (user.id === actor.id || user.is_bot || createdIds.has(channel.id)) continue;
    const entry = byUser.get(user.id) ?? { user, names: [] };
    entry.names.push(channel.name);
    byUser.set(user.id, entry);
  }
  if (byUser.size > MAX_BULK_NEW_SUBSCRIPTION_MESSAGES) return false;
  for (const { user, names } of byUser.values()) {
    const sorted = [...names].sort();
    const content =
      sorted.length === 1
        ? `${silentMention(actor)} subscribed you to #**${sorted[0]}**.`
        : `${silentMention(actor)} subscribed you to the following channels:\n\n${sorted.map((n) => `* #**${n}**`).join("\n")}\n`;
    await sendDirectNotice(deps, tx, realm, user, content, { actingUser: actor });
  }
  return true;
}
