/**
 * The drafts, scheduled messages and reminders of the web client's state (web/src/state/
 * compose-lists.ts) from register, kept current by their add / update / remove events; and the
 * datetime-local conversions of the schedule and reminder pickers (web/src/compose/time.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEvent } from "../../../web/src/state/apply-event";
import { stateFromRegister } from "../../../web/src/state/client-state";
import { draftsOf, remindersOf, scheduledOf } from "../../../web/src/state/compose-lists";
import type { RegisterResponse } from "../../../web/src/state/types";
import { fromLocalInput, timePresets, toLocalInput } from "../../../web/src/compose/time";

const draft = (id: number, content: string) => ({ id, type: "stream", to: [1], topic: "t", content, timestamp: 100 + id });
const scheduled = (id: number, at: number, content = "x") => ({ scheduled_message_id: id, type: "stream", to: 1, topic: "t", content, rendered_content: `<p>${content}</p>`, scheduled_delivery_timestamp: at, failed: false });

function state() {
  const register = {
    user_id: 10,
    realm_users: [],
    subscriptions: [],
    unsubscribed: [],
    never_subscribed: [],
    unread_msgs: { count: 0, streams: [], pms: [], huddles: [], mentions: [], old_unreads_missing: false },
    starred_messages: [],
    recent_private_conversations: [],
    user_settings: {},
    drafts: [draft(1, "first")],
    scheduled_messages: [scheduled(5, 2000)],
    reminders: [],
  } as unknown as RegisterResponse;
  return stateFromRegister(register);
}

let id = 0;
const event = (body: Record<string, unknown>) => ({ id: ++id, type: String(body.type), ...body });

describe("drafts, scheduled messages and reminders in the client state", () => {
  it("follows drafts add, update and remove", () => {
    let s = applyEvent(state(), event({ type: "drafts", op: "add", drafts: [draft(2, "second")] }));
    s = applyEvent(s, event({ type: "drafts", op: "update", draft: draft(1, "first, edited") }));
    assert.deepEqual(draftsOf(s).map((d) => [d.id, d.content]).sort(), [[1, "first, edited"], [2, "second"]]);
    s = applyEvent(s, event({ type: "drafts", op: "remove", draft_id: 1 }));
    assert.deepEqual(draftsOf(s).map((d) => d.id), [2]);
  });

  it("keeps scheduled messages and reminders in delivery order", () => {
    let s = applyEvent(state(), event({ type: "scheduled_messages", op: "add", scheduled_messages: [scheduled(6, 1000)] }));
    assert.deepEqual(scheduledOf(s).map((m) => m.scheduled_message_id), [6, 5]);
    s = applyEvent(s, event({ type: "scheduled_messages", op: "update", scheduled_message: scheduled(6, 3000, "later") }));
    assert.deepEqual(scheduledOf(s).map((m) => [m.scheduled_message_id, m.content]), [[5, "x"], [6, "later"]]);
    s = applyEvent(s, event({ type: "scheduled_messages", op: "remove", scheduled_message_id: 5 }));
    assert.deepEqual(scheduledOf(s).map((m) => m.scheduled_message_id), [6]);
    const reminder = { reminder_id: 9, to: [10], content: "c", rendered_content: "<p>c</p>", scheduled_delivery_timestamp: 5, failed: false, reminder_target_message_id: 3 };
    s = applyEvent(s, event({ type: "reminders", op: "add", reminders: [reminder] }));
    assert.deepEqual(remindersOf(s).map((r) => r.reminder_id), [9]);
    s = applyEvent(s, event({ type: "reminders", op: "remove", reminder_id: 9 }));
    assert.deepEqual(remindersOf(s), []);
  });
});

describe("schedule and reminder times", () => {
  it("round-trips datetime-local values and offers future presets", () => {
    const now = new Date(2026, 10, 26, 10, 7, 30); // a Thursday
    assert.equal(toLocalInput(now), "2026-11-26T10:07");
    assert.equal(fromLocalInput("2026-11-26T10:07"), Math.floor(new Date(2026, 10, 26, 10, 7).getTime() / 1000));
    assert.equal(fromLocalInput("not a time"), null);
    assert.equal(fromLocalInput(""), null);
    const presets = timePresets(now);
    assert.deepEqual(presets.map((p) => [p.label, toLocalInput(p.date)]), [
      ["In 1 hour", "2026-11-26T11:07"],
      ["Tomorrow at 9:00", "2026-11-27T09:00"],
      ["Monday at 9:00", "2026-11-30T09:00"],
    ]);
  });
});
