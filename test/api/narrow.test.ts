/**
 * Every narrow operator of zulip-facts section d over GET /messages: positive, negated and with a
 * bad operand, on every store; plus search highlights and GET /messages/matches_narrow.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, createChannel, getMessages, muteChannel, narrowIds, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

type Ids = Record<string, number>;

for (const kind of STORE_KINDS) {
  describe(`narrow operators [${kind}]`, () => {
    let t: TestRealm;
    const m: Ids = {};
    let verona: number;
    let denmark: number;
    /** Every message hamlet holds a row for. */
    let hamletAll: number[];

    const ids = (...names: string[]) => names.map((n) => m[n]).sort((a, b) => a - b);
    const without = (all: number[], ...names: string[]) => all.filter((id) => !names.some((n) => m[n] === id));
    const check = async (narrow: unknown[], expected: number[], user: UserName = "hamlet") =>
      assert.deepEqual(await narrowIds(t, user, narrow), expected, JSON.stringify(narrow));
    const bad = async (narrow: unknown[], desc: string, user: UserName = "hamlet") =>
      assertError(await t.as(user).get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow }), "BAD_NARROW", `Invalid narrow operator: ${desc}`);
    const neg = (operator: string, operand: unknown) => ({ operator, operand, negated: true });

    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["iago", "hamlet", "othello"]);
      denmark = await createChannel(t, "Denmark", ["iago", "othello"]);
      await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true, history_public_to_subscribers: false });
      await t.deps.store.db.insertInto("alert_words").values({ user_id: t.users.hamlet.id, word: "dragon" }).execute();
      m.lunch1 = await sendToChannel(t, "hamlet", "Verona", "lunch", "Let's have lunch, running late");
      m.lunch2 = await sendToChannel(t, "othello", "Verona", "Lunch", "I'll bring pasta for @**King Hamlet**, see https://example.com/menu");
      m.resolved = await sendToChannel(t, "iago", "Verona", "✔ broken build", "fixed now");
      m.general = await sendToChannel(t, "iago", "Verona", "", "general chatter");
      m.image = await sendToChannel(t, "othello", "Verona", "pics", "look https://example.com/cat.png");
      m.upload = await sendToChannel(t, "othello", "Verona", "pics", "[report.pdf](/user_uploads/2/ab/cdef/report.pdf)");
      m.alert = await sendToChannel(t, "othello", "Verona", "tales", "there be a dragon");
      m.castle = await sendToChannel(t, "othello", "Denmark", "castle", "a ghost on the walls");
      m.secret = await sendToChannel(t, "iago", "Secret", "plans", "secret plans");
      m.dmOut = await sendDm(t, "hamlet", ["othello"], "psst");
      m.dmIn = await sendDm(t, "othello", ["hamlet"], "reply");
      m.group = await sendDm(t, "othello", ["hamlet", "iago"], "group hello");
      m.self = await sendDm(t, "hamlet", ["hamlet"], "note to self");
      m.others = await sendDm(t, "othello", ["cordelia"], "between others");
      const starred = await t.as("hamlet").post("/messages/flags/narrow", { anchor: String(m.lunch1), num_before: 0, num_after: 0, narrow: [], op: "add", flag: "starred" });
      assert.equal(starred.status, 200, JSON.stringify(starred.body));
      assert.equal((await t.as("iago").post(`/messages/${m.lunch1}/reactions`, { emoji_name: "smile" })).status, 200);
      await t.as("hamlet").post("/user_topics", { stream_id: verona, topic: "lunch", visibility_policy: 3 });
      await t.as("hamlet").post("/user_topics", { stream_id: verona, topic: "", visibility_policy: 1 });
      await muteChannel(t, denmark, "othello");
      // Othello started "castle", so follows it (FL 214); here the muted channel mutes it.
      await t.as("othello").post("/user_topics", { stream_id: denmark, topic: "castle", visibility_policy: 0 });
      hamletAll = ids("lunch1", "lunch2", "resolved", "general", "image", "upload", "alert", "secret", "dmOut", "dmIn", "group", "self");
    });
    after(() => t.close());

    it("channel / stream: by name or id; history of public channels; unknown or hidden ones refused", async () => {
      const veronaIds = ids("lunch1", "lunch2", "resolved", "general", "image", "upload", "alert");
      await check([{ operator: "channel", operand: "Verona" }], veronaIds);
      await check([{ operator: "stream", operand: verona }], veronaIds);
      await check([["stream", "verona"]], veronaIds);
      await check([neg("channel", "Verona")], ids("secret", "dmOut", "dmIn", "group", "self"));
      // hamlet isn't subscribed to Denmark, but its history is public to members.
      const castle = await getMessages(t, "hamlet", { anchor: "newest", num_before: 5, num_after: 0, narrow: [["channel", "Denmark"]] });
      assert.deepEqual(castle.messages.map((x: { id: number }) => x.id), [m.castle]);
      assert.deepEqual(castle.messages[0].flags, ["read", "historical"]);
      await bad([["channel", "Nowhere"]], "unknown channel Nowhere");
      await bad([{ operator: "channel", operand: 99999 }], "unknown channel 99999");
      await bad([{ operator: "channel", operand: [1] }], "operand is not a string or integer");
      await bad([["channel", "Secret"]], "unknown channel Secret", "othello");
    });

    it("channels: public searches every public channel; web-public; other operands refused", async () => {
      const publicIds = ids("lunch1", "lunch2", "resolved", "general", "image", "upload", "alert", "castle");
      await check([{ operator: "channels", operand: "public" }], publicIds);
      await check([["streams", "public"]], publicIds);
      await check([neg("channels", "public")], ids("secret", "dmOut", "dmIn", "group", "self"));
      await check([{ operator: "channels", operand: "web-public" }], []);
      await bad([["channels", "private"]], "unknown channels operand private");
    });

    it("topic: case-insensitive; the empty topic by name or display name", async () => {
      await check([["channel", "Verona"], ["topic", "LUNCH"]], ids("lunch1", "lunch2"));
      await check([["channel", "Verona"], neg("topic", "lunch")], ids("resolved", "general", "image", "upload", "alert"));
      await check([["channel", "Verona"], ["topic", ""]], ids("general"));
      await check([["channel", "Verona"], ["topic", "general chat"]], ids("general"));
      await bad([{ operator: "topic", operand: 3 }], "operand is not a string");
    });

    it("sender: email, id or me", async () => {
      await check([["sender", "othello@zulip.test"]], ids("lunch2", "image", "upload", "alert", "dmIn", "group"));
      await check([{ operator: "sender", operand: t.users.hamlet.id }], ids("lunch1", "dmOut", "self"));
      await check([["sender", "me"]], ids("lunch1", "dmOut", "self"));
      await check([neg("sender", "othello@zulip.test")], without(hamletAll, "lunch2", "image", "upload", "alert", "dmIn", "group"));
      await bad([["sender", "ghost@zulip.test"]], "unknown user ghost@zulip.test");
      await bad([{ operator: "sender", operand: 99999 }], "unknown user 99999");
    });

    it("dm / pm-with: exactly one conversation, by emails or ids, including with oneself", async () => {
      await check([["dm", "othello@zulip.test"]], ids("dmOut", "dmIn"));
      await check([{ operator: "pm-with", operand: [t.users.othello.id] }], ids("dmOut", "dmIn"));
      await check([{ operator: "dm", operand: [t.users.othello.id, t.users.iago.id] }], ids("group"));
      await check([["pm_with", "othello@zulip.test,iago@zulip.test,hamlet@zulip.test"]], ids("group"));
      await check([{ operator: "dm", operand: [t.users.hamlet.id] }], ids("self"));
      await check([{ operator: "dm", operand: [t.users.othello.id, t.users.cordelia.id] }], []);
      await check([neg("dm", "othello@zulip.test")], without(hamletAll, "dmOut", "dmIn"));
      await bad([["dm", "ghost@zulip.test"]], "unknown user in ghost@zulip.test");
      await bad([{ operator: "dm", operand: [99999] }], "unknown user in [99999]");
      await bad([{ operator: "dm", operand: ["x"] }], "operand is not a string or an integer list");
    });

    it("dm-including and group-pm-with", async () => {
      await check([["dm-including", "othello@zulip.test"]], ids("dmOut", "dmIn", "group"));
      await check([{ operator: "dm-including", operand: t.users.hamlet.id }], ids("dmOut", "dmIn", "group", "self"));
      await check([neg("dm-including", "iago@zulip.test")], without(hamletAll, "group"));
      await check([["group-pm-with", "iago@zulip.test"]], ids("group"));
      await check([{ operator: "group_pm_with", operand: t.users.othello.id }], ids("group"));
      await check([neg("group-pm-with", "othello@zulip.test")], without(hamletAll, "group"));
      await bad([["dm-including", "ghost@zulip.test"]], "unknown user ghost@zulip.test");
      await bad([["group-pm-with", "ghost@zulip.test"]], "unknown user ghost@zulip.test");
    });

    it("is: dm / private, starred, unread, mentioned, alerted, resolved", async () => {
      const dms = ids("dmOut", "dmIn", "group", "self");
      await check([["is", "dm"]], dms);
      await check([["is", "private"]], dms);
      await check([neg("is", "dm")], without(hamletAll, "dmOut", "dmIn", "group", "self"));
      await check([["is", "starred"]], ids("lunch1"));
      await check([neg("is", "starred")], without(hamletAll, "lunch1"));
      const unread = without(hamletAll, "lunch1", "dmOut", "self");
      await check([["is", "unread"]], unread);
      await check([neg("is", "unread")], ids("lunch1", "dmOut", "self"));
      await check([["is", "mentioned"]], ids("lunch2"));
      await check([neg("is", "mentioned")], without(hamletAll, "lunch2"));
      await check([["is", "alerted"]], ids("alert"));
      await check([neg("is", "alerted")], without(hamletAll, "alert"));
      await check([["is", "resolved"]], ids("resolved"));
      await check([neg("is", "resolved")], without(hamletAll, "resolved"));
      await bad([["is", "shiny"]], "unknown 'is' operand shiny");
    });

    it("is: followed and muted; in: home and all", async () => {
      await check([["is", "followed"]], ids("lunch1", "lunch2"));
      await check([neg("is", "followed")], without(hamletAll, "lunch1", "lunch2"));
      await check([["is", "muted"]], ids("general"));
      await check([neg("is", "muted")], without(hamletAll, "general"));
      await check([["in", "home"]], without(hamletAll, "general"));
      await check([neg("in", "home")], ids("general"));
      await check([["in", "all"]], hamletAll);
      // othello muted Denmark: in:home leaves it out, is:muted keeps only it.
      const othelloAll = await narrowIds(t, "othello", []);
      assert.ok(othelloAll.includes(m.castle));
      await check([["is", "muted"]], ids("castle"), "othello");
      await check([["in", "home"]], othelloAll.filter((id) => id !== m.castle), "othello");
      await bad([["in", "away"]], "unknown 'in' operand away");
    });

    it("has: link, image, attachment, reaction", async () => {
      await check([["has", "link"]], ids("lunch2", "image", "upload"));
      await check([neg("has", "link")], without(hamletAll, "lunch2", "image", "upload"));
      await check([["has", "image"]], ids("image"));
      await check([neg("has", "image")], without(hamletAll, "image"));
      await check([["has", "attachment"]], ids("upload"));
      await check([neg("has", "attachment")], without(hamletAll, "upload"));
      await check([["has", "reaction"]], ids("lunch1"));
      await check([neg("has", "reaction")], without(hamletAll, "lunch1"));
      await bad([["has", "video"]], "unknown 'has' operand video");
    });

    it("id: only that message, if visible", async () => {
      await check([{ operator: "id", operand: m.lunch2 }], ids("lunch2"));
      await check([["id", String(m.dmIn)]], ids("dmIn"));
      await check([neg("id", m.lunch2)], without(hamletAll, "lunch2"));
      await check([{ operator: "id", operand: m.others }], []);
      await bad([["id", "twelve"]], "Invalid message ID");
    });

    it("near: no filter, and the anchor when none is given", async () => {
      await check([["near", String(m.group)]], hamletAll);
      const body = await getMessages(t, "hamlet", { num_before: 1, num_after: 1, narrow: [["near", String(m.group)]] });
      assert.equal(body.anchor, m.group);
      assert.deepEqual(body.messages.map((x: { id: number }) => x.id), ids("dmIn", "group", "self"));
      await bad([{ operator: "near", operand: 5 }], "operand is not a string");
    });

    it("with: the conversation now holding the message", async () => {
      await check([{ operator: "with", operand: m.lunch2 }], ids("lunch1", "lunch2"));
      await check([["channel", "Denmark"], ["topic", "castle"], ["with", String(m.lunch1)]], ids("lunch1", "lunch2"));
      await check([{ operator: "with", operand: m.dmIn }], ids("dmOut", "dmIn"));
      await check([{ operator: "with", operand: m.group }, ["has", "link"]], []);
      // A hidden message: dropped when the rest names a conversation, refused otherwise.
      await check([["dm", "othello@zulip.test"], { operator: "with", operand: m.others }], ids("dmOut", "dmIn"));
      await bad([{ operator: "with", operand: m.others }], "Invalid 'with' operator");
      await bad([["with", "abc"]], "Invalid 'with' operator");
      const dup = await t.as("hamlet").get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [["with", "1"], ["with", "2"]] });
      assertError(dup, "BAD_NARROW", "Invalid narrow operator combination: Duplicate 'with' operators.");
    });

    it("mentions: direct mentions of a user", async () => {
      await check([{ operator: "mentions", operand: t.users.hamlet.id }], ids("lunch2"));
      await check([{ operator: "mentions", operand: t.users.hamlet.id }], ids("lunch2"), "iago");
      await check([neg("mentions", t.users.hamlet.id)], without(hamletAll, "lunch2"));
      await bad([{ operator: "mentions", operand: 99999 }], "unknown user 99999");
    });

    it("search: stemmed full-text match with highlighted content and topic", async () => {
      const body = await getMessages(t, "hamlet", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["search", "lunches"]] });
      assert.deepEqual(body.messages.map((x: { id: number }) => x.id), ids("lunch1", "lunch2"));
      const [first, second] = body.messages;
      assert.equal(first.match_content, '<p>Let\'s have <span class="highlight">lunch</span>, running late</p>');
      assert.equal(first.match_subject, '<span class="highlight">lunch</span>');
      assert.equal(second.match_subject, '<span class="highlight">Lunch</span>');
      assert.equal(first.content, "<p>Let's have lunch, running late</p>");
      await check([["search", "run"]], ids("lunch1"));
      await check([["search", '"bring pasta"']], ids("lunch2"));
      await check([["search", '"pasta bring"']], []);
      await check([["search", "ghost"]], []);
      await check([["channel", "Denmark"], ["search", "ghost"]], ids("castle"));
      await check([["search", "lunch"], ["search", "pasta"]], ids("lunch2"));
      await check([["channel", "Verona"], neg("search", "lunch")], ids("resolved", "general", "image", "upload", "alert"));
      await check([["search", "!!!"]], []);
      await bad([["search", ""]], "operand cannot be blank.");
    });

    it("bounds the work of one narrow: terms, search words, operand length (issue 16, F2, F13)", async () => {
      // At the limits both stores answer (1,000 negated topics was a 500 on both).
      const topics = Array.from({ length: 99 }, (_, i) => neg("topic", `t${i}`));
      const inVerona = [{ operator: "channel", operand: "Verona" }];
      await check([...inVerona, ...topics], await narrowIds(t, "hamlet", inVerona));
      const hundredWords = Array.from({ length: 99 }, (_, i) => `w${i}`).join(" ") + " lunch";
      await check([{ operator: "search", operand: hundredWords }], []);
      await bad([...topics, neg("topic", "a"), neg("topic", "b")], "narrow has more than 100 terms");
      await bad([{ operator: "search", operand: `${hundredWords} one` }], "search operand has more than 100 words");
      await bad([{ operator: "search", operand: Array.from({ length: 50_000 }, (_, i) => `w${i}`).join(" ") }], "operand is longer than 10000 characters");
      await bad([{ operator: "dm", operand: Array.from({ length: 1_001 }, (_, i) => i + 1) }], "dm operand lists more than 1000 users");
      for (const path of ["/messages/matches_narrow", "/messages/flags/narrow"]) {
        const params = { narrow: [{ operator: "search", operand: `${hundredWords} one` }], msg_ids: [m.lunch1], anchor: "newest", num_before: 1, num_after: 0, op: "add", flag: "read" };
        const res = path.includes("flags") ? await t.as("hamlet").post(path, params) : await t.as("hamlet").get(path, params);
        assertError(res, "BAD_NARROW", "Invalid narrow operator: search operand has more than 100 words");
      }
    });

    it("refuses channel terms together with direct-message terms", async () => {
      await bad([["channel", "Verona"], ["is", "dm"]], "No message can be both a channel message and direct message");
      await bad([["bogus", "x"]], "unknown operator bogus");
    });

    it("matches_narrow: which messages match, with highlights", async () => {
      const res = await t.as("hamlet").get("/messages/matches_narrow", {
        msg_ids: [m.lunch1, m.lunch2, m.dmIn, m.others],
        narrow: [{ operator: "search", operand: "pasta" }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body.messages), [String(m.lunch2)]);
      assert.match(res.body.messages[m.lunch2].match_content, /<span class="highlight">pasta<\/span>/);
      assert.equal(res.body.messages[m.lunch2].match_subject, "Lunch");
      const plain = await t.as("hamlet").get("/messages/matches_narrow", { msg_ids: [m.lunch1, m.dmIn], narrow: [["is", "dm"]] });
      assert.deepEqual(plain.body.messages, { [m.dmIn]: { match_content: "<p>reply</p>", match_subject: "" } });
      const badNarrow = await t.as("hamlet").get("/messages/matches_narrow", { msg_ids: [m.lunch1], narrow: [["is", "shiny"]] });
      assertError(badNarrow, "BAD_NARROW", "Invalid narrow operator: unknown 'is' operand shiny");
      assertError(await t.as("hamlet").get("/messages/matches_narrow", { narrow: [] }), "REQUEST_VARIABLE_MISSING", "Missing 'msg_ids' argument");
    });
  });
}
