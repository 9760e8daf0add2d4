/**
 * Pure parts of the buddy list and the sidebar's counts (web/src/state): presence statuses from
 * active and connected times against the server's clock, merged answers that never go back in
 * time, and unread counts that leave out muted topics and muted channels (followed and unmuted
 * topics of a muted channel still count), as Zulip's web app shows them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEvent } from "../../../web/src/state/apply-event";
import { stateFromRegister, type ClientState } from "../../../web/src/state/client-state";
import { mergePresences, presenceFromRegister, presenceStatus } from "../../../web/src/state/presence";
import type { RegisterResponse } from "../../../web/src/state/types";
import { visibleUnreadCounts } from "../../../web/src/state/unread-visible";

const ME = 10;

function state(): ClientState {
  return stateFromRegister({
    queue_id: "q",
    last_event_id: -1,
    user_id: ME,
    realm_users: [],
    subscriptions: [
      { stream_id: 1, name: "a", description: "", invite_only: false, color: "#ccc", is_muted: false, pin_to_top: false },
      { stream_id: 2, name: "b", description: "", invite_only: false, color: "#ccc", is_muted: false, pin_to_top: false },
    ],
    unsubscribed: [],
    never_subscribed: [],
    unread_msgs: {
      count: 5,
      streams: [
        { stream_id: 1, topic: "Noise", unread_message_ids: [1, 2] },
        { stream_id: 1, topic: "news", unread_message_ids: [3] },
        { stream_id: 2, topic: "x", unread_message_ids: [4] },
      ],
      pms: [{ other_user_id: 11, unread_message_ids: [5] }],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
    starred_messages: [],
    recent_private_conversations: [],
    user_settings: {},
  } as unknown as RegisterResponse);
}

describe("presence statuses", () => {
  const register = { presences: { "7": { active_timestamp: 1000, idle_timestamp: 1000 }, "8": { active_timestamp: 0, idle_timestamp: 1100 } }, server_timestamp: 1150, server_presence_offline_threshold_seconds: 200, presence_last_update_id: 4 };

  it("reads active, idle and offline against the server's clock, not the local one", () => {
    const local = 5_000_000; // ms: the local clock is far off the server's
    const p = presenceFromRegister(register, local);
    assert.equal(presenceStatus(p, 7, local), "active");
    assert.equal(presenceStatus(p, 8, local), "idle");
    assert.equal(presenceStatus(p, 9, local), "offline");
    assert.equal(presenceStatus(p, 7, local + 60_000), "offline"); // 210 s after the last activity
    assert.equal(presenceStatus(p, 8, local + 60_000), "idle");
  });

  it("merges newer times and keeps them when an older answer arrives late", () => {
    const p = presenceFromRegister(register, 0);
    const newer = mergePresences(p, { "7": { active_timestamp: 1200, idle_timestamp: 1200 } }, 6);
    const late = mergePresences(newer, { "7": { active_timestamp: 1000, idle_timestamp: 1000 } }, 5);
    assert.deepEqual(late.byUser.get(7), { active_timestamp: 1200, idle_timestamp: 1200 });
    assert.equal(late.lastUpdateId, 6);
  });
});

describe("unread counts without muted conversations", () => {
  const event = (body: Record<string, unknown>) => ({ id: 1, type: String(body.type), ...body });

  it("drops a muted topic from its channel and the combined feed, keeping topics and DMs", () => {
    const muted = applyEvent(state(), event({ type: "user_topic", stream_id: 1, topic_name: "noise", visibility_policy: 1, last_updated: 1 }));
    const counts = visibleUnreadCounts(muted);
    assert.equal(counts.byStream.get(1), 1);
    assert.equal(counts.total, 3); // news, x, and the DM
    assert.equal(counts.dmTotal, 1);
    assert.equal(visibleUnreadCounts(state()).total, 5);
  });

  it("drops a muted channel except its followed or unmuted topics", () => {
    let s = applyEvent(state(), event({ type: "subscription", op: "update", stream_id: 1, property: "is_muted", value: true }));
    assert.equal(visibleUnreadCounts(s).byStream.get(1), undefined);
    assert.equal(visibleUnreadCounts(s).total, 2);
    s = applyEvent(s, event({ type: "user_topic", stream_id: 1, topic_name: "news", visibility_policy: 3, last_updated: 1 }));
    assert.equal(visibleUnreadCounts(s).byStream.get(1), 1);
  });

  it("takes presence events into the state", () => {
    const s = applyEvent(state(), event({ type: "presence", presences: { "7": { active_timestamp: 10, idle_timestamp: 10 } } }));
    assert.deepEqual(s.presence.byUser.get(7), { active_timestamp: 10, idle_timestamp: 10 });
  });
});
