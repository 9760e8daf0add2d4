/**
 * The web client's state from POST /register kept current by events (web/src/state): unread
 * counts per channel, topic and DM through message, flag, move and delete events; typing
 * indicators with their expiry (spec 4.1 rule 4); subscriptions and realm settings.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEvent, expireTyping } from "../../../web/src/state/apply-event";
import { conversationKey, mutedInFeed, stateFromRegister, type ClientState } from "../../../web/src/state/client-state";
import type { Message, RegisterResponse } from "../../../web/src/state/types";
import { topicKey, unreadCounts } from "../../../web/src/state/unread";

const ME = 10;
const OTHER = 11;
let nextEventId = 0;

function register(): ClientState {
  const response = {
    queue_id: "q1",
    last_event_id: -1,
    user_id: ME,
    realm_users: [ME, OTHER, 12].map((id) => ({ user_id: id, email: `u${id}@x.test`, full_name: `User ${id}`, role: 400, is_active: true, is_bot: false })),
    subscriptions: [{ stream_id: 1, name: "general", description: "", invite_only: false, color: "#c2c2c2", is_muted: false, pin_to_top: false }],
    unsubscribed: [],
    never_subscribed: [{ stream_id: 2, name: "random", description: "", invite_only: false }],
    unread_msgs: {
      count: 3,
      streams: [{ stream_id: 1, topic: "Lunch", unread_message_ids: [100, 101] }],
      pms: [{ other_user_id: OTHER, unread_message_ids: [102] }],
      huddles: [],
      mentions: [101],
      old_unreads_missing: false,
    },
    starred_messages: [],
    recent_private_conversations: [],
    user_settings: { enter_sends: false },
    realm_name: "Acme",
    server_typing_started_wait_period_milliseconds: 10_000,
    server_typing_stopped_wait_period_milliseconds: 5_000,
    server_typing_started_expiry_period_milliseconds: 15_000,
  } as unknown as RegisterResponse;
  return stateFromRegister(response);
}

const event = (body: Record<string, unknown>) => ({ id: ++nextEventId, type: String(body.type), ...body });

function streamMessage(id: number, topic: string, flags: string[] = []): Message {
  return { id, sender_id: OTHER, sender_email: "u11@x.test", sender_full_name: "User 11", type: "stream", stream_id: 1, subject: topic, display_recipient: "general", content: "<p>hi</p>", timestamp: 1, reactions: [], flags };
}

describe("client state from register and events", () => {
  it("counts register's unread messages per channel, topic (any case), DM and mention", () => {
    const counts = unreadCounts(register().unread);
    assert.equal(counts.total, 3);
    assert.equal(counts.byStream.get(1), 2);
    assert.equal(counts.byTopic.get(topicKey(1, "lunch")), 2);
    assert.equal(counts.byDm.get(String(OTHER)), 1);
    assert.equal(counts.mentions, 1);
    assert.deepEqual([...register().channels.keys()].sort(), [1, 2]);
  });

  it("adds new unread messages, and not read ones (the user's own)", () => {
    let state = applyEvent(register(), event({ type: "message", message: streamMessage(103, "lunch"), flags: [] }));
    state = applyEvent(state, event({ type: "message", message: streamMessage(104, "lunch"), flags: ["read"] }));
    assert.equal(unreadCounts(state.unread).byTopic.get(topicKey(1, "Lunch")), 3);
    assert.equal(unreadCounts(state.unread).total, 4);
  });

  it("marks read and unread again with update_message_flags, and 'all' clears everything", () => {
    let state = applyEvent(register(), event({ type: "update_message_flags", op: "add", flag: "read", messages: [100, 101], all: false }));
    assert.equal(unreadCounts(state.unread).byStream.get(1), undefined);
    assert.equal(unreadCounts(state.unread).mentions, 0);
    state = applyEvent(state, event({ type: "update_message_flags", op: "remove", flag: "read", messages: [100], message_details: { 100: { type: "stream", stream_id: 1, topic: "Lunch", mentioned: true } } }));
    assert.equal(unreadCounts(state.unread).byTopic.get(topicKey(1, "lunch")), 1);
    assert.equal(unreadCounts(state.unread).mentions, 1);
    state = applyEvent(state, event({ type: "update_message_flags", op: "add", flag: "read", messages: [], all: true }));
    assert.equal(unreadCounts(state.unread).total, 0);
  });

  it("tracks starring", () => {
    const state = applyEvent(register(), event({ type: "update_message_flags", op: "add", flag: "starred", messages: [5, 6] }));
    assert.deepEqual([...applyEvent(state, event({ type: "update_message_flags", op: "remove", flag: "starred", messages: [5] })).starred], [6]);
  });

  it("moves unread messages with their topic and drops deleted ones", () => {
    let state = applyEvent(register(), event({ type: "update_message", message_id: 100, message_ids: [100, 101], stream_id: 1, new_stream_id: 2, orig_subject: "Lunch", subject: "Dinner" }));
    assert.equal(unreadCounts(state.unread).byTopic.get(topicKey(2, "dinner")), 2);
    assert.equal(unreadCounts(state.unread).byStream.get(1), undefined);
    state = applyEvent(state, event({ type: "delete_message", message_ids: [100] }));
    assert.equal(unreadCounts(state.unread).byTopic.get(topicKey(2, "dinner")), 1);
  });

  it("shows typing until stop, the sender's message, or the expiry period", () => {
    const start = event({ type: "typing", op: "start", message_type: "stream", sender: { user_id: OTHER }, stream_id: 1, topic: "Lunch" });
    const key = conversationKey({ streamId: 1, topic: "lunch" });
    let state = applyEvent(register(), start, 1_000);
    assert.deepEqual(state.typing, [{ senderId: OTHER, conversation: key, expiresAt: 16_000 }]);
    assert.equal(expireTyping(state, 15_999).typing.length, 1);
    assert.equal(expireTyping(state, 16_000).typing.length, 0);
    state = applyEvent(state, start, 10_000); // a new start pushes the expiry back
    assert.equal(state.typing.length, 1);
    assert.equal(state.typing[0].expiresAt, 25_000);
    assert.equal(applyEvent(state, { ...start, op: "stop" }, 11_000).typing.length, 0);
    assert.equal(applyEvent(state, event({ type: "message", message: streamMessage(200, "Lunch"), flags: [] })).typing.length, 0);
  });

  it("keys DM typing by the other participants, ignoring the user's own typing", () => {
    const dm = event({ type: "typing", op: "start", message_type: "direct", sender: { user_id: OTHER }, recipients: [{ user_id: ME }, { user_id: OTHER }, { user_id: 12 }] });
    assert.equal(applyEvent(register(), dm).typing[0].conversation, conversationKey({ dmKey: "11,12" }));
    assert.equal(applyEvent(register(), { ...dm, sender: { user_id: ME } }).typing.length, 0);
  });

  it("follows subscriptions, channel renames, user changes and realm settings", () => {
    let state = applyEvent(register(), event({ type: "subscription", op: "add", subscriptions: [{ stream_id: 2, name: "random", color: "#fff", is_muted: false, pin_to_top: false }] }));
    assert.ok(state.subscriptions.has(2));
    state = applyEvent(state, event({ type: "stream", op: "update", stream_id: 2, property: "name", value: "chatter" }));
    assert.equal(state.subscriptions.get(2)?.name, "chatter");
    assert.equal(state.channels.get(2)?.name, "chatter");
    state = applyEvent(state, event({ type: "subscription", op: "remove", subscriptions: [{ stream_id: 2 }] }));
    assert.ok(!state.subscriptions.has(2));
    state = applyEvent(state, event({ type: "realm_user", op: "update", person: { user_id: OTHER, full_name: "Renamed" } }));
    assert.equal(state.users.get(OTHER)?.full_name, "Renamed");
    state = applyEvent(state, event({ type: "realm", op: "update", property: "name", value: "Acme Inc" }));
    assert.equal(state.realm.realm_name, "Acme Inc");
    state = applyEvent(state, event({ type: "user_settings", op: "update", property: "enter_sends", value: true }));
    assert.equal(state.userSettings.enter_sends, true);
  });

  it("follows topic visibility, muting topics and channels out of the combined feed (in:home)", () => {
    const lunch = { type: "stream", stream_id: 1, subject: "Lunch" };
    let state = applyEvent(register(), event({ type: "user_topic", stream_id: 1, topic_name: "lunch", last_updated: 1, visibility_policy: 1 }));
    assert.equal(mutedInFeed(state, lunch), true);
    state = applyEvent(state, event({ type: "user_topic", stream_id: 1, topic_name: "lunch", last_updated: 2, visibility_policy: 0 }));
    assert.equal(mutedInFeed(state, lunch), false);
    state = applyEvent(state, event({ type: "subscription", op: "update", stream_id: 1, property: "is_muted", value: true }));
    assert.equal(mutedInFeed(state, lunch), true);
    state = applyEvent(state, event({ type: "user_topic", stream_id: 1, topic_name: "LUNCH", last_updated: 3, visibility_policy: 2 }));
    assert.equal(mutedInFeed(state, lunch), false);
    assert.equal(mutedInFeed(state, { type: "private", subject: "" }), false);
  });
});
