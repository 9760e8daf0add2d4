/**
 * An open message list kept current by events (web/src/state/message-list-events.ts): new
 * messages only in their narrow and only when the list reaches the newest, edits with the
 * "edited" marker (not for re-renders), moves with "moved" and leaving a topic narrow,
 * reactions, flags and deletions.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Narrow } from "../../../web/src/router";
import { applyEventToList, type ListContext } from "../../../web/src/state/message-list-events";
import type { Message } from "../../../web/src/state/types";

const ME = 1;
const topicNarrow: Narrow = { kind: "topic", streamId: 5, topic: "Plans" };
const MUTED_CHANNEL = 9;
const ctx = (narrow: Narrow = topicNarrow, foundNewest = true): ListContext => ({ narrow, myId: ME, foundNewest, channelName: (id) => `channel ${id}`, mutedInFeed: (m) => m.stream_id === MUTED_CHANNEL });

function message(id: number, overrides: Partial<Message> = {}): Message {
  return { id, sender_id: 2, sender_email: "b@x.test", sender_full_name: "B", type: "stream", stream_id: 5, subject: "plans", display_recipient: "five", content: `<p>${id}</p>`, timestamp: id, reactions: [], flags: [], ...overrides };
}

const ev = (body: Record<string, unknown>) => ({ id: 1, type: String(body.type), ...body });

describe("message list events", () => {
  it("appends a new message of the narrow (topics match in any case), not others, not twice", () => {
    const list = [message(1)];
    const added = applyEventToList(list, ev({ type: "message", message: message(2, { subject: "PLANS" }), flags: ["mentioned"] }), ctx());
    assert.deepEqual(added.map((m) => m.id), [1, 2]);
    assert.deepEqual(added[1].flags, ["mentioned"]);
    assert.equal(applyEventToList(added, ev({ type: "message", message: message(2), flags: [] }), ctx()), added);
    assert.equal(applyEventToList(list, ev({ type: "message", message: message(3, { subject: "other" }), flags: [] }), ctx()), list);
    assert.equal(applyEventToList(list, ev({ type: "message", message: message(3), flags: [] }), ctx(topicNarrow, false)), list);
  });

  it("leaves messages of muted channels and topics out of the combined feed only", () => {
    const muted = message(6, { stream_id: MUTED_CHANNEL });
    assert.equal(applyEventToList([], ev({ type: "message", message: muted, flags: [] }), ctx({ kind: "all" })).length, 0);
    assert.equal(applyEventToList([], ev({ type: "message", message: muted, flags: [] }), ctx({ kind: "channel", streamId: MUTED_CHANNEL })).length, 1);
    assert.equal(applyEventToList([], ev({ type: "message", message: message(7), flags: [] }), ctx({ kind: "all" })).length, 1);
  });

  it("matches DMs by participants and mentions by flags", () => {
    const dm = message(4, { type: "private", stream_id: undefined, display_recipient: [{ id: ME, email: "a", full_name: "A" }, { id: 2, email: "b", full_name: "B" }] });
    assert.equal(applyEventToList([], ev({ type: "message", message: dm, flags: [] }), ctx({ kind: "dm", userIds: [2] })).length, 1);
    assert.equal(applyEventToList([], ev({ type: "message", message: dm, flags: [] }), ctx({ kind: "dm", userIds: [3] })).length, 0);
    assert.equal(applyEventToList([], ev({ type: "message", message: message(5), flags: ["mentioned"] }), ctx({ kind: "mentions" })).length, 1);
    assert.equal(applyEventToList([], ev({ type: "message", message: message(5), flags: [] }), ctx({ kind: "search", query: "5" })).length, 0);
  });

  it("applies an edit with the edited marker, and a re-render without it", () => {
    const [edited] = applyEventToList([message(1)], ev({ type: "update_message", message_id: 1, message_ids: [1], rendered_content: "<p>new</p>", edit_timestamp: 50 }), ctx());
    assert.equal(edited.content, "<p>new</p>");
    assert.equal(edited.last_edit_timestamp, 50);
    const [rerendered] = applyEventToList([message(1)], ev({ type: "update_message", message_id: 1, message_ids: [1], rendered_content: "<p>preview</p>", rendering_only: true, edit_timestamp: 60 }), ctx());
    assert.equal(rerendered.content, "<p>preview</p>");
    assert.equal(rerendered.last_edit_timestamp, undefined);
  });

  it("marks moved messages, which leave a topic narrow but stay in the combined feed", () => {
    const move = ev({ type: "update_message", message_id: 1, message_ids: [1, 2], stream_id: 5, new_stream_id: 6, orig_subject: "plans", subject: "later", edit_timestamp: 70 });
    assert.deepEqual(applyEventToList([message(1), message(2), message(3)], move, ctx()).map((m) => m.id), [3]);
    const [moved] = applyEventToList([message(1)], move, ctx({ kind: "all" }));
    assert.equal(moved.stream_id, 6);
    assert.equal(moved.display_recipient, "channel 6");
    assert.equal(moved.subject, "later");
    assert.equal(moved.last_moved_timestamp, 70);
    assert.equal(moved.last_edit_timestamp, undefined);
  });

  it("adds and removes reactions, once per user and emoji", () => {
    const add = ev({ type: "reaction", op: "add", message_id: 1, user_id: 2, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" });
    let list = applyEventToList([message(1)], add, ctx());
    list = applyEventToList(list, add, ctx());
    assert.equal(list[0].reactions.length, 1);
    list = applyEventToList(list, { ...add, op: "remove" }, ctx());
    assert.equal(list[0].reactions.length, 0);
  });

  it("sets and clears flags, and removes deleted messages", () => {
    let list = applyEventToList([message(1), message(2)], ev({ type: "update_message_flags", op: "add", flag: "read", messages: [2] }), ctx());
    assert.deepEqual(list.map((m) => m.flags), [[], ["read"]]);
    list = applyEventToList(list, ev({ type: "update_message_flags", op: "add", flag: "read", messages: [], all: true }), ctx());
    assert.deepEqual(list.map((m) => m.flags), [["read"], ["read"]]);
    list = applyEventToList(list, ev({ type: "delete_message", message_ids: [1] }), ctx());
    assert.deepEqual(list.map((m) => m.id), [2]);
  });
});
