/** Drafts kept on the server (Zulip's drafts endpoints; spec 4.2 for synchronization), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel, setUserSettings } from "../helpers/conversations.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`drafts [${kind}]`, () => {
    let t: TestRealm;
    let lounge: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      lounge = await createChannel(t, "lounge", ["hamlet"]);
    });
    afterEach(() => t.close());

    const create = (drafts: unknown[], who: "hamlet" | "othello" = "hamlet") => t.as(who).post("/drafts", { drafts });
    const mine = async () => (await t.as("hamlet").get("/drafts")).body;

    it("creates channel, direct and recipient-less drafts, and lists them least recently edited first", async () => {
      t.published.length = 0;
      const res = await create([
        { type: "stream", to: [lounge], topic: "  plans  ", content: "See you at **noon**  ", timestamp: 1_700_000_500 },
        { type: "private", to: [t.users.othello.id, t.users.hamlet.id, t.users.cordelia.id, t.users.othello.id], topic: "ignored", content: "hi", timestamp: 1_700_000_100.9 },
        { type: "", to: [lounge], topic: "x", content: "half a thought" },
      ]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [a, b, c] = res.body.ids as number[];
      const expected = [
        { id: c, type: "", to: [], topic: "", content: "half a thought", timestamp: t.clock.seconds },
        { id: b, type: "private", to: [t.users.othello.id, t.users.cordelia.id].sort((x, y) => x - y), topic: "", content: "hi", timestamp: 1_700_000_100 },
        { id: a, type: "stream", to: [lounge], topic: "plans", content: "See you at **noon**", timestamp: 1_700_000_500 },
      ];
      assert.deepEqual(await mine(), { result: "success", msg: "", count: 3, drafts: expected });
      const [event] = eventsOf(t, "drafts", "add");
      assert.deepEqual(event.userIds, [t.users.hamlet.id]);
      assert.deepEqual(new Set((event.event.drafts as Array<{ id: number }>).map((d) => d.id)), new Set([a, b, c]));
    });

    it("keeps a direct draft to yourself, and one to nobody as recipient-less", async () => {
      const res = await create([
        { type: "private", to: [t.users.hamlet.id], topic: "", content: "note to self" },
        { type: "private", to: [], topic: "", content: "to whom?" },
      ]);
      assert.equal(res.status, 200);
      const drafts = (await mine()).drafts as Array<{ type: string; to: number[] }>;
      assert.deepEqual(drafts.map((d) => [d.type, d.to]), [["private", [t.users.hamlet.id]], ["", []]]);
    });

    it("refuses bad drafts, creating none of the batch", async () => {
      const ok = { type: "stream", to: [lounge], topic: "t", content: "fine" };
      const cases: Array<[unknown, string, string?]> = [
        [{ ...ok, to: [lounge, lounge] }, "Must specify exactly 1 channel ID for channel messages"],
        [{ ...ok, to: [] }, "Must specify exactly 1 channel ID for channel messages"],
        [{ ...ok, to: [999999] }, "Invalid channel ID"],
        [{ type: "private", to: [999999], topic: "", content: "x" }, "Invalid user ID 999999"],
        [{ ...ok, content: "   " }, "Message must not be empty"],
        [{ ...ok, timestamp: -1 }, "Timestamp must not be negative."],
        [{ ...ok, type: "direct" }, 'Invalid drafts[1]["type"]', "REQUEST_VARIABLE_INVALID"],
        [{ ...ok, extra: 1 }, "Unexpected arguments: extra", "REQUEST_VARIABLE_INVALID"],
        [{ type: "stream", to: [lounge], content: "x" }, 'drafts[1] key is missing: topic', "REQUEST_VARIABLE_INVALID"],
      ];
      for (const [bad, msg, code] of cases) assertError(await create([ok, bad]), msg, code);
      assertError(await t.as("hamlet").post("/drafts", { drafts: "nope" }), 'Argument "drafts" is not valid JSON.', "INVALID_JSON");
      assert.equal((await mine()).count, 0);
    });

    it("refuses a draft for a private channel the user cannot read", async () => {
      const secret = await createChannel(t, "secret", ["iago"], { invite_only: true });
      assertError(await create([{ type: "stream", to: [secret], topic: "t", content: "x" }]), "Invalid channel ID");
    });

    it("edits a draft in place", async () => {
      const [id] = (await create([{ type: "stream", to: [lounge], topic: "t", content: "first" }])).body.ids;
      t.published.length = 0;
      const res = await t.as("hamlet").patch(`/drafts/${id}`, { draft: { type: "private", to: [t.users.othello.id], topic: "", content: "second", timestamp: 1_700_000_900 } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const draft = { type: "private", to: [t.users.othello.id], topic: "", content: "second", timestamp: 1_700_000_900 };
      assert.deepEqual((await mine()).drafts, [{ id, ...draft }]);
      assert.deepEqual(eventsOf(t, "drafts", "update")[0].event, { type: "drafts", op: "update", draft: { id, ...draft } });
      assertError(await t.as("othello").patch(`/drafts/${id}`, { draft }), "Draft does not exist", "BAD_REQUEST", 404);
      assertError(await t.as("hamlet").patch("/drafts/999999", { draft }), "Draft does not exist", "BAD_REQUEST", 404);
      assertError(await t.as("hamlet").patch(`/drafts/${id}`, { draft: { ...draft, content: "" } }), "Message must not be empty");
      assertError(await t.as("hamlet").patch(`/drafts/${id}`, {}), "Missing 'draft' argument", "REQUEST_VARIABLE_MISSING");
    });

    it("deletes a draft of one's own", async () => {
      const [id] = (await create([{ type: "", to: [], topic: "", content: "x" }])).body.ids;
      assertError(await t.as("othello").delete(`/drafts/${id}`), "Draft does not exist", "BAD_REQUEST", 404);
      t.published.length = 0;
      assert.equal((await t.as("hamlet").delete(`/drafts/${id}`)).status, 200);
      assert.deepEqual(eventsOf(t, "drafts", "remove")[0].event, { type: "drafts", op: "remove", draft_id: id });
      assertError(await t.as("hamlet").delete(`/drafts/${id}`), "Draft does not exist", "BAD_REQUEST", 404);
    });

    it("stores nothing while enable_drafts_synchronization is off, and turning it off deletes the drafts", async () => {
      await create([{ type: "", to: [], topic: "", content: "x" }]);
      const off = await t.as("hamlet").patch("/settings", { enable_drafts_synchronization: false });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal((await mine()).count, 0);
      assertError(await create([{ type: "", to: [], topic: "", content: "x" }]), "User has disabled synchronizing drafts.");
      assertError(await t.as("hamlet").patch("/drafts/1", { draft: { type: "", to: [], topic: "", content: "x" } }), "User has disabled synchronizing drafts.");
      await setUserSettings(t, "hamlet", { enable_drafts_synchronization: true });
      assert.equal((await create([{ type: "", to: [], topic: "", content: "x" }])).status, 200);
    });

    describe("permissions per endpoint", () => {
      const everyone = ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"] as const;
      const draft = { type: "", to: [], topic: "", content: "x" };
      const own = async (who: UserName) => (await t.as(who).post("/drafts", { drafts: [draft] })).body.ids[0] as number;
      it("GET /drafts", () => checkPermissions(everyone, (who) => t.as(who).get("/drafts")));
      it("POST /drafts", () => checkPermissions(everyone, (who) => t.as(who).post("/drafts", { drafts: [draft] })));
      it("PATCH /drafts/{id}", () => checkPermissions(everyone, async (who) => t.as(who).patch(`/drafts/${await own(who)}`, { draft })));
      it("DELETE /drafts/{id}", () => checkPermissions(everyone, async (who) => t.as(who).delete(`/drafts/${await own(who)}`)));
    });
  });
}
