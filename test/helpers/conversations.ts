/**
 * Setup shortcuts for tests about messages in conversations: channels created over HTTP, and the
 * state no endpoint of ours sets up yet (late subscriptions, archiving, custom emoji) written
 * through the store.
 */
import assert from "node:assert/strict";
import { getChannelById, updateChannel } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { subscribeUsers, updateSubscription } from "../../src/store/subscriptions.js";
import { getUserById, updateUser } from "../../src/store/users.js";
import type { TestRealm, UserName } from "./fixtures.js";

export async function createChannel(
  t: TestRealm,
  name: string,
  subscribers: UserName[],
  opts: { invite_only?: boolean; history_public_to_subscribers?: boolean; is_web_public?: boolean } = {},
): Promise<number> {
  const res = await t.as("iago").post("/channels/create", { name, subscribers: subscribers.map((u) => t.users[u].id), ...opts });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

export async function subscribe(t: TestRealm, channelId: number, users: UserName[]): Promise<void> {
  const channel = await getChannelById(readTx(t.deps.store), t.realmId, channelId);
  await transaction(t.deps.store, (tx) => subscribeUsers(tx, channel!.recipient_id!, users.map((u) => t.users[u].id), () => "#c2c2c2"));
}

export async function muteChannel(t: TestRealm, channelId: number, user: UserName, muted: boolean): Promise<void> {
  const channel = await getChannelById(readTx(t.deps.store), t.realmId, channelId);
  await transaction(t.deps.store, (tx) => updateSubscription(tx, t.users[user].id, channel!.recipient_id!, { is_muted: muted }));
}

/** Overrides some of the user's personal settings (stored as JSON on the user row). */
export async function setUserSettings(t: TestRealm, user: UserName, changes: Record<string, unknown>): Promise<void> {
  await transaction(t.deps.store, async (tx) => {
    const row = await getUserById(tx, t.realmId, t.users[user].id);
    await updateUser(tx, row!.id, { settings: JSON.stringify({ ...JSON.parse(row!.settings), ...changes }) });
  });
}

export async function archiveChannel(t: TestRealm, channelId: number): Promise<void> {
  await transaction(t.deps.store, (tx) => updateChannel(tx, channelId, { deactivated: true }));
}

export async function sendToChannel(t: TestRealm, sender: UserName, channel: string, topic: string, content = "hello"): Promise<number> {
  const res = await t.as(sender).post("/messages", { type: "stream", to: channel, topic, content });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

export async function sendDirect(t: TestRealm, sender: UserName, to: UserName[], content = "psst"): Promise<number> {
  const res = await t.as(sender).post("/messages", { type: "direct", to: to.map((u) => t.users[u].id), content });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

/** A custom emoji of the test realm; returns its id (its reactions' emoji_code). */
export async function addRealmEmoji(t: TestRealm, name: string, deactivated = false): Promise<number> {
  return transaction(t.deps.store, async (tx) => {
    const row = await tx.db
      .insertInto("realm_emoji")
      .values({ realm_id: t.realmId, name, author_id: t.users.iago.id, file_name: `${name}.png`, deactivated })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

export async function setRealmEmojiDeactivated(t: TestRealm, id: number, deactivated: boolean): Promise<void> {
  await transaction(t.deps.store, (tx) => tx.db.updateTable("realm_emoji").set({ deactivated }).where("id", "=", id).execute());
}

/** The user's flag bits for a message, or null without a row. */
export async function userMessageFlags(t: TestRealm, user: UserName, messageId: number): Promise<number | null> {
  const row = await readTx(t.deps.store)
    .db.selectFrom("user_messages")
    .select("flags")
    .where("user_id", "=", t.users[user].id)
    .where("message_id", "=", messageId)
    .executeTakeFirst();
  return row?.flags ?? null;
}
