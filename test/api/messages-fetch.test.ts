/**
 * GET /messages (spec 4.8): anchors, the window and its found_* flags, limits, message_ids,
 * visibility and history_limited, presentation options; and POST /messages/flags/narrow.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { NEWEST_ANCHOR } from "../../src/lib/anchor.js";
import { createTestRealm, type ApiResponse, type TestRealm } from "../helpers/fixtures.js";
import { assertError, createChannel, getMessages, narrowIds, sendDm, sendToChannel, subscribe } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const DAY = 86400;
const START = Date.UTC(2024, 0, 10) / 1000;

for (const kind of STORE_KINDS) {
  describe(`get messages [${kind}]`, () => {
    let t: TestRealm;
    /** Ten messages in Anchors, one a day from START, ascending. */
    let ten: number[];
    const inAnchors = [{ operator: "channel", operand: "Anchors" }];
    const window = async (params: Record<string, unknown>): Promise<ApiResponse["body"]> => {
      const body = await getMessages(t, "hamlet", { narrow: inAnchors, ...params });
      return { ...body, ids: body.messages.map((x: { id: number }) => x.id) };
    };

    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Anchors", ["iago", "hamlet"]);
      ten = [];
      for (let i = 0; i < 10; i++) {
        t.clock.seconds = START + i * DAY;
        ten.push(await sendToChannel(t, "iago", "Anchors", `day ${i}`, `message ${i}`));
      }
    });
    after(() => t.close());

    it("anchor newest / oldest with found_* at both ends", async () => {
      const newest = await window({ anchor: "newest", num_before: 3, num_after: 5 });
      assert.deepEqual(newest.ids, ten.slice(7));
      assert.equal(newest.anchor, NEWEST_ANCHOR);
      assert.deepEqual([newest.found_anchor, newest.found_oldest, newest.found_newest, newest.history_limited], [false, false, true, false]);
      const oldest = await window({ anchor: "oldest", num_before: 4, num_after: 3 });
      assert.deepEqual(oldest.ids, ten.slice(0, 3));
      assert.equal(oldest.anchor, 0);
      assert.deepEqual([oldest.found_anchor, oldest.found_oldest, oldest.found_newest], [false, true, false]);
      const exact = await window({ anchor: "oldest", num_before: 0, num_after: 10 });
      assert.deepEqual([exact.ids.length, exact.found_newest], [10, false]);
      const all = await window({ anchor: "oldest", num_before: 0, num_after: 11 });
      assert.deepEqual([all.ids.length, all.found_newest, all.found_oldest], [10, true, true]);
      const everything = await window({ anchor: "newest", num_before: 10, num_after: 0 });
      assert.deepEqual([everything.found_oldest, everything.found_newest], [false, true]);
    });

    it("anchor by id, with and without the anchor itself", async () => {
      const mid = await window({ anchor: String(ten[4]), num_before: 2, num_after: 2 });
      assert.deepEqual(mid.ids, ten.slice(2, 7));
      assert.deepEqual([mid.anchor, mid.found_anchor, mid.found_oldest, mid.found_newest], [ten[4], true, false, false]);
      const excludedBelow = await window({ anchor: String(ten[4]), num_before: 2, num_after: 0, include_anchor: false });
      assert.deepEqual([excludedBelow.ids, excludedBelow.found_anchor], [ten.slice(2, 4), false]);
      const excludedAbove = await window({ anchor: String(ten[4]), num_before: 0, num_after: 2, include_anchor: false });
      assert.deepEqual(excludedAbove.ids, ten.slice(5, 7));
      const alone = await window({ anchor: String(ten[4]), num_before: 0, num_after: 0 });
      assert.deepEqual([alone.ids, alone.found_anchor], [[ten[4]], true]);
      // An id outside the narrow anchors the window without being found.
      const dm = await sendDm(t, "iago", ["hamlet"], "not in Anchors");
      const gap = await window({ anchor: String(dm), num_before: 1, num_after: 1 });
      assert.deepEqual([gap.ids, gap.found_anchor, gap.found_newest], [[ten[9]], false, true]);
      const below = await window({ anchor: "-5", num_before: 1, num_after: 1 });
      assert.deepEqual([below.anchor, below.ids, below.found_oldest], [0, [ten[0]], true]);
      assertError(
        await t.as("hamlet").get("/messages", { anchor: String(ten[4]), num_before: 2, num_after: 2, include_anchor: false }),
        "BAD_REQUEST",
        "The anchor can only be excluded at an end of the range",
      );
      assertError(await t.as("hamlet").get("/messages", { anchor: "soon", num_before: 1, num_after: 1 }), "BAD_REQUEST", "Invalid anchor");
    });

    it("anchor first_unread: the oldest unread match, else newest; and the legacy flag", async () => {
      const marked = await t.as("hamlet").post("/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 4, narrow: inAnchors, op: "add", flag: "read" });
      assert.equal(marked.body.updated_count, 4);
      const first = await window({ anchor: "first_unread", num_before: 1, num_after: 1 });
      assert.deepEqual([first.anchor, first.ids, first.found_anchor], [ten[4], ten.slice(3, 6), true]);
      const legacy = await window({ use_first_unread_anchor: true, num_before: 0, num_after: 0 });
      assert.equal(legacy.anchor, ten[4]);
      const iago = await getMessages(t, "iago", { anchor: "first_unread", num_before: 2, num_after: 2, narrow: inAnchors });
      assert.equal(iago.anchor, NEWEST_ANCHOR);
      assert.deepEqual(iago.messages.map((x: { id: number }) => x.id), ten.slice(8));
      // Zulip's parse_anchor_value: the legacy flag wins over any anchor, which is not even
      // parsed. zulip-terminal's first fetch sends anchor=0 with it (issue 15).
      for (const anchor of ["0", "newest", "not an anchor"]) {
        const both = await window({ anchor, use_first_unread_anchor: true, num_before: 1, num_after: 1 });
        assert.deepEqual([both.anchor, both.ids, both.found_anchor], [ten[4], ten.slice(3, 6), true], anchor);
      }
      const off = await window({ anchor: "0", use_first_unread_anchor: false, num_before: 0, num_after: 1 });
      assert.deepEqual([off.anchor, off.ids], [0, [ten[0]]]);
    });

    it("anchor date: the first message on or after it, else newest", async () => {
      const byDate = await window({ anchor: "date", anchor_date: "2024-01-13", num_before: 1, num_after: 1 });
      assert.deepEqual([byDate.anchor, byDate.ids], [ten[3], ten.slice(2, 5)]);
      const byTime = await window({ anchor: "date", anchor_date: "2024-01-13T00:00:01", num_before: 0, num_after: 0 });
      assert.equal(byTime.anchor, ten[4]);
      const zoned = await window({ anchor: "date", anchor_date: "2024-01-13T02:00:00+02:00", num_before: 0, num_after: 0 });
      assert.equal(zoned.anchor, ten[3]);
      // Past the newest message the anchor is "newest" itself: num_before messages, not one more,
      // with found_newest (issue 15: two messages and found_newest false before).
      const flags = (w: ApiResponse["body"]) => [w.found_anchor, w.found_oldest, w.found_newest, w.history_limited];
      for (const numAfter of [0, 1]) {
        const late = await window({ anchor: "date", anchor_date: "2030-01-01", num_before: 1, num_after: numAfter });
        assert.deepEqual([late.anchor, late.ids, ...flags(late)], [NEWEST_ANCHOR, [ten[9]], false, false, true, false], `num_after ${numAfter}`);
      }
      const lateAll = await window({ anchor: "date", anchor_date: "2030-01-01", num_before: 20, num_after: 0 });
      assert.deepEqual([lateAll.ids, ...flags(lateAll)], [ten, false, true, true, false]);
      // A numeric anchor past the newest message keeps Zulip's id semantics: num_before older
      // messages, found_newest only when a num_after window came back short.
      const pastId = ten[9] + 1000;
      const byId = await window({ anchor: String(pastId), num_before: 1, num_after: 0 });
      assert.deepEqual([byId.anchor, byId.ids, ...flags(byId)], [pastId, [ten[9]], false, false, false, false]);
      const byIdAfter = await window({ anchor: String(pastId), num_before: 1, num_after: 1 });
      assert.deepEqual([byIdAfter.ids, ...flags(byIdAfter)], [[ten[9]], false, false, true, false]);
      const none = await getMessages(t, "hamlet", { anchor: "date", anchor_date: "2024-01-01", num_before: 1, num_after: 1, narrow: [["search", "xylophone"]] });
      assert.deepEqual([none.anchor, none.messages, ...flags(none)], [NEWEST_ANCHOR, [], false, true, true, false]);
      assertError(await t.as("hamlet").get("/messages", { anchor: "date", anchor_date: "13/01/2024", num_before: 1, num_after: 1 }), "REQUEST_VARIABLE_INVALID", "anchor_date is not a valid datetime");
      assertError(await t.as("hamlet").get("/messages", { anchor: "date", num_before: 1, num_after: 1 }), "REQUEST_VARIABLE_MISSING", "Missing 'anchor_date' argument");
    });

    it("requires the window, and refuses more than 5000 messages", async () => {
      assertError(await t.as("hamlet").get("/messages", { num_before: 1, num_after: 1 }), "REQUEST_VARIABLE_MISSING", "Missing 'anchor' argument");
      assertError(await t.as("hamlet").get("/messages", { anchor: "newest", num_after: 1 }), "REQUEST_VARIABLE_MISSING", "Missing 'num_before' argument");
      assertError(await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 1 }), "REQUEST_VARIABLE_MISSING", "Missing 'num_after' argument");
      assertError(await t.as("hamlet").get("/messages", { anchor: "newest", num_before: -1, num_after: 0 }), "REQUEST_VARIABLE_INVALID", "num_before is too small");
      const tooMany = "Too many messages requested (maximum 5000).";
      assertError(await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 3000, num_after: 2001 }), "BAD_REQUEST", tooMany);
      assert.equal((await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 2500, num_after: 2500 })).status, 200);
      const ids = Array.from({ length: 5001 }, (_, i) => i + 1);
      assertError(await t.as("hamlet").get("/messages", { message_ids: ids }), "BAD_REQUEST", tooMany);
      assertError(await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: "[" }), "INVALID_JSON", 'Argument "narrow" is not valid JSON.');
    });

    it("message_ids: the readable subset, filtered by the narrow, without anchor fields", async () => {
      await createChannel(t, "Open", ["iago"]);
      const open = await sendToChannel(t, "iago", "Open", "t", "public history");
      const hidden = await sendDm(t, "iago", ["othello"], "hidden");
      const body = await getMessages(t, "hamlet", { message_ids: [ten[5], hidden, 999999, open, ten[1]] });
      assert.deepEqual(body.messages.map((x: { id: number }) => x.id), [ten[1], ten[5], open]);
      assert.deepEqual(body.messages[2].flags, ["read", "historical"]);
      assert.equal("anchor" in body, false);
      assert.deepEqual([body.found_anchor, body.found_oldest, body.found_newest, body.history_limited], [false, false, false, false]);
      const filtered = await getMessages(t, "hamlet", { message_ids: [ten[5], open], narrow: [["channel", "Open"]] });
      assert.deepEqual(filtered.messages.map((x: { id: number }) => x.id), [open]);
      const starredOnly = await getMessages(t, "hamlet", { message_ids: [ten[5], open], narrow: [["is", "unread"]] });
      assert.deepEqual(starredOnly.messages.map((x: { id: number }) => x.id), [ten[5]]);
      const combination = "Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor";
      for (const extra of [{ anchor: "newest" }, { include_anchor: true }, { use_first_unread_anchor: false }, { num_before: 0 }, { num_after: 1 }]) {
        assertError(await t.as("hamlet").get("/messages", { message_ids: [ten[1]], ...extra }), "BAD_REQUEST", combination);
      }
    });

    it("presents full message objects with the requested options", async () => {
      t.clock.seconds = START + 20 * DAY;
      const empty = await sendToChannel(t, "iago", "Anchors", "", "**bold** in the general chat");
      const fetch = (opts: Record<string, unknown>) => getMessages(t, "hamlet", { anchor: String(empty), num_before: 0, num_after: 0, ...opts });
      const [shown] = (await fetch({})).messages;
      assert.equal(shown.subject, "general chat");
      assert.equal(shown.content, "<p><strong>bold</strong> in the general chat</p>");
      assert.equal(shown.display_recipient, "Anchors");
      assert.equal(shown.sender_id, t.users.iago.id);
      assert.equal(shown.timestamp, START + 20 * DAY);
      assert.deepEqual(shown.flags, []);
      const [raw] = (await fetch({ apply_markdown: false, allow_empty_topic_name: true, client_gravatar: false })).messages;
      assert.equal(raw.subject, "");
      assert.equal(raw.content, "**bold** in the general chat");
      assert.equal(raw.content_type, "text/x-markdown");
      assert.deepEqual(await narrowIds(t, "hamlet", [["channel", "Anchors"], ["topic", "general chat"]]), [empty]);
    });
  });

  describe(`message visibility [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("a member removed from a private channel can no longer read, trace or react to what they received there (issue 16, F8)", async () => {
      // A realm of its own: the guest's rows in a public channel would change what later tests see.
      const t = await createTestRealm(kind);
      try {
        await createChannel(t, "Vault", ["iago", "othello"], { invite_only: true });
        await createChannel(t, "Lobby", ["iago", "othello", "polonius"]);
        const secret = await sendToChannel(t, "iago", "Vault", "plans", "the secret");
        const open = await sendToChannel(t, "iago", "Lobby", "chat", "hello all");
        const reads = async (user: "othello" | "polonius", id: number) => [
          (await t.as(user).get(`/messages/${id}`)).status,
          (await t.as(user).get(`/messages/${id}/history`)).status,
          (await t.as(user).post(`/messages/${id}/reactions`, { emoji_name: "smile" })).status,
        ];
        assert.deepEqual(await reads("othello", secret), [200, 200, 200]);
        for (const [name, user] of [["Vault", "othello"], ["Lobby", "othello"], ["Lobby", "polonius"]] as const) {
          const res = await t.as(user).delete("/users/me/subscriptions", { subscriptions: [name] });
          assert.equal(res.status, 200, JSON.stringify(res.body));
        }
        assert.deepEqual(await reads("othello", secret), [400, 400, 400]);
        assertError(await t.as("othello").get(`/messages/${secret}`), "BAD_REQUEST", "Invalid message(s)");
        // A public channel stays readable to members after they leave; not to a guest.
        assert.deepEqual((await reads("othello", open)).slice(0, 2), [200, 200]);
        assert.deepEqual((await reads("polonius", open)).slice(0, 2), [400, 400]);
      } finally {
        await t.close();
      }
    });

    it("a protected-history private channel shows a late joiner only later messages; history_limited says nothing of them (issue 16, F5)", async () => {
      const secret = await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true, history_public_to_subscribers: false });
      const early = [await sendToChannel(t, "iago", "Secret", "plans", "one"), await sendToChannel(t, "iago", "Secret", "plans", "two")];
      await subscribe(t, secret, ["cordelia"]);
      const late = await sendToChannel(t, "iago", "Secret", "plans", "three");
      const cordelia = await getMessages(t, "cordelia", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channel", "Secret"]] });
      assert.deepEqual(cordelia.messages.map((x: { id: number }) => x.id), [late]);
      // history_limited is Zulip's plan-limit flag; it must not tell whether hidden history exists
      // or, with a search, matches.
      assert.deepEqual([cordelia.found_oldest, cordelia.history_limited], [true, false]);
      for (const word of ["one", "three", "absent"]) {
        const search = await getMessages(t, "cordelia", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channel", "Secret"], ["search", word]] });
        assert.equal(search.history_limited, false, word);
      }
      const hamlet = await getMessages(t, "hamlet", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channel", "Secret"]] });
      assert.deepEqual(hamlet.messages.map((x: { id: number }) => x.id), [...early, late]);
      assert.equal(hamlet.history_limited, false);
      const topicOnly = await getMessages(t, "cordelia", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channel", "Secret"], ["topic", "other"]] });
      assert.equal(topicOnly.history_limited, false);
      assertError(
        await t.as("othello").get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [["channel", "Secret"]] }),
        "BAD_NARROW",
        "Invalid narrow operator: unknown channel Secret",
      );
      assert.deepEqual((await getMessages(t, "othello", { message_ids: early })).messages, []);
    });

    it("a shared-history private channel shows a late joiner everything", async () => {
      const shared = await createChannel(t, "Shared", ["iago"], { invite_only: true, history_public_to_subscribers: true });
      const old = await sendToChannel(t, "iago", "Shared", "t", "before");
      await subscribe(t, shared, ["cordelia"]);
      const body = await getMessages(t, "cordelia", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channel", "Shared"]] });
      assert.deepEqual(body.messages.map((x: { id: number }) => x.id), [old]);
      assert.equal(body.history_limited, false);
    });

    it("guests see public channels only once subscribed", async () => {
      const open = await createChannel(t, "Forum", ["iago"]);
      const post = await sendToChannel(t, "iago", "Forum", "t", "for members");
      const refuse = await t.as("polonius").get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [["channel", "Forum"]] });
      assertError(refuse, "BAD_NARROW", "Invalid narrow operator: unknown channel Forum");
      assert.deepEqual(await narrowIds(t, "polonius", [["channels", "public"]]), []);
      assert.deepEqual((await getMessages(t, "polonius", { message_ids: [post] })).messages, []);
      await subscribe(t, open, ["polonius"]);
      assert.deepEqual(await narrowIds(t, "polonius", [["channel", "Forum"]]), [post]);
    });

    it("direct messages between others are never returned", async () => {
      const between = await sendDm(t, "othello", ["cordelia"], "just us");
      const mine = await sendDm(t, "hamlet", ["cordelia"], "hello");
      assert.deepEqual(await narrowIds(t, "hamlet", [["is", "dm"]]), [mine]);
      assert.deepEqual(await narrowIds(t, "hamlet", [{ operator: "id", operand: between }]), []);
      assert.deepEqual(await narrowIds(t, "hamlet", [["dm-including", "othello@zulip.test"]]), []);
      assert.deepEqual((await getMessages(t, "hamlet", { message_ids: [between, mine] })).messages.map((x: { id: number }) => x.id), [mine]);
      assert.deepEqual(await narrowIds(t, "cordelia", [["dm", "othello@zulip.test"]]), [between]);
    });
  });

  describe(`flags for a narrow [${kind}]`, () => {
    let t: TestRealm;
    let posts: number[];
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet"]);
      await createChannel(t, "Denmark", ["iago"]);
      posts = [];
      for (let i = 0; i < 6; i++) posts.push(await sendToChannel(t, "iago", "Verona", "t", `post ${i}`));
    });
    after(() => t.close());

    it("marks a window read and publishes one update_message_flags event", async () => {
      t.published.length = 0;
      const res = await t.as("hamlet").post("/messages/flags/narrow", {
        anchor: String(posts[1]),
        num_before: 0,
        num_after: 3,
        narrow: [{ operator: "channel", operand: "Verona" }],
        op: "add",
        flag: "read",
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        { ...res.body },
        {
          result: "success",
          msg: "",
          processed_count: 4,
          updated_count: 4,
          first_processed_id: posts[1],
          last_processed_id: posts[4],
          found_oldest: false,
          found_newest: false,
          ignored_because_not_subscribed_channels: [],
        },
      );
      const events = t.published.filter((e) => e.event.type === "update_message_flags");
      assert.deepEqual(events, [
        { event: { type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: posts.slice(1, 5), all: false }, userIds: [t.users.hamlet.id] },
      ]);
      const again = await t.as("hamlet").post("/messages/flags/narrow", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["channel", "Verona"]], op: "add", flag: "read" });
      assert.deepEqual([again.body.processed_count, again.body.updated_count, again.body.found_oldest, again.body.found_newest], [6, 2, true, true]);
      const unread = await t.as("hamlet").post("/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 1, narrow: [], op: "remove", flag: "read" });
      assert.deepEqual([unread.body.processed_count, unread.body.updated_count], [1, 1]);
    });

    it("stars a readable message without a row by creating a historical one", async () => {
      const castle = await sendToChannel(t, "iago", "Denmark", "castle", "ghost");
      const res = await t.as("hamlet").post("/messages/flags/narrow", { anchor: String(castle), num_before: 0, num_after: 0, narrow: [["channel", "Denmark"]], op: "add", flag: "starred" });
      assert.deepEqual([res.body.processed_count, res.body.updated_count], [1, 1]);
      const [shown] = (await getMessages(t, "hamlet", { message_ids: [castle] })).messages;
      assert.deepEqual(shown.flags.sort(), ["historical", "read", "starred"]);
      assert.deepEqual(await narrowIds(t, "hamlet", [["is", "starred"]]), [castle]);
    });

    it("refuses flags clients may not change and bad windows", async () => {
      const call = (extra: Record<string, unknown>) =>
        t.as("hamlet").post("/messages/flags/narrow", { anchor: "newest", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "read", ...extra });
      assertError(await call({ flag: "mentioned" }), "BAD_REQUEST", "Flag not editable: 'mentioned'");
      assertError(await call({ flag: "bogus" }), "BAD_REQUEST", "Invalid flag: 'bogus'");
      assertError(await call({ op: "toggle" }), "BAD_REQUEST", "Invalid message flag operation: 'toggle'");
      assertError(await call({ anchor: String(posts[2]), num_after: 1, include_anchor: false }), "BAD_REQUEST", "The anchor can only be excluded at an end of the range");
      assertError(await call({ narrow: [["is", "shiny"]] }), "BAD_NARROW", "Invalid narrow operator: unknown 'is' operand shiny");
      assertError(await call({ narrow: undefined }), "REQUEST_VARIABLE_MISSING", "Missing 'narrow' argument");
      // Windows over 5000 are clamped, not refused.
      assert.equal((await call({ num_before: 6000, num_after: 6000 })).status, 200);
    });
  });
}
