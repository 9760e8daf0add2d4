/** Shortcuts for tests that need channels, subscriptions and messages in place. */
import assert from "node:assert/strict";
import { getChannelById } from "../../src/store/channels.js";
import { transaction } from "../../src/store/db.js";
import { subscribeUsers, updateSubscription } from "../../src/store/subscriptions.js";
import type { ApiResponse, TestRealm, UserName } from "./fixtures.js";

export async function createChannel(t: TestRealm, name: string, subscribers: UserName[], extra: Record<string, unknown> = {}): Promise<number> {
  const res = await t.as("iago").post("/channels/create", { name, subscribers: subscribers.map((u) => t.users[u].id), ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

async function recipientOf(t: TestRealm, channelId: number): Promise<number> {
  const channel = await transaction(t.deps.store, (tx) => getChannelById(tx, t.realmId, channelId));
  return channel?.recipient_id as number;
}

/** Subscribes without the API (no events, no notifications): "joined later" in history tests. */
export async function subscribe(t: TestRealm, channelId: number, users: UserName[]): Promise<void> {
  const recipientId = await recipientOf(t, channelId);
  await transaction(t.deps.store, (tx) => subscribeUsers(tx, recipientId, users.map((u) => t.users[u].id), () => "#76ce90"));
}

export async function muteChannel(t: TestRealm, channelId: number, user: UserName): Promise<void> {
  const recipientId = await recipientOf(t, channelId);
  await transaction(t.deps.store, (tx) => updateSubscription(tx, t.users[user].id, recipientId, { is_muted: true }));
}

export async function sendToChannel(t: TestRealm, sender: UserName, channel: string, topic: string, content: string): Promise<number> {
  const res = await t.as(sender).post("/messages", { type: "stream", to: channel, topic, content });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

export async function sendDm(t: TestRealm, sender: UserName, to: UserName[], content: string): Promise<number> {
  const res = await t.as(sender).post("/messages", { type: "direct", to: to.map((u) => t.users[u].id), content });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id;
}

/** GET /messages, asserting success. */
export async function getMessages(t: TestRealm, user: UserName, params: Record<string, unknown>): Promise<ApiResponse["body"]> {
  const res = await t.as(user).get("/messages", params);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The ids a narrow returns (newest 1000), ascending. */
export async function narrowIds(t: TestRealm, user: UserName, narrow: unknown[]): Promise<number[]> {
  const body = await getMessages(t, user, { anchor: "newest", num_before: 1000, num_after: 0, narrow });
  return body.messages.map((m: { id: number }) => m.id);
}

/** An error response, asserting its status and code. */
export function assertError(res: ApiResponse, code: string, msg: string, status = 400): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.result, "error");
  assert.equal(res.body.code, code);
  assert.equal(res.body.msg, msg);
}
