/** Saved snippets (Zulip's get/create/edit/delete-saved-snippet; FL 297 and 368), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`saved snippets [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const create = async (title: string, content: string, who: "hamlet" | "othello" = "hamlet") => {
      const res = await t.as(who).post("/saved_snippets", { title, content });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.saved_snippet_id as number;
    };

    it("creates, lists in creation order, edits and deletes, telling only the owner's clients", async () => {
      t.published.length = 0;
      const first = await create("  Greeting ", "  Welcome to the **team**!\n");
      t.clock.seconds += 60;
      const second = await create("Bye", "See you");
      const expected = [
        { id: first, title: "Greeting", content: "Welcome to the **team**!", date_created: 1_700_000_000 },
        { id: second, title: "Bye", content: "See you", date_created: 1_700_000_060 },
      ];
      assert.deepEqual((await t.as("hamlet").get("/saved_snippets")).body, { result: "success", msg: "", saved_snippets: expected });
      const added = eventsOf(t, "saved_snippets", "add");
      assert.deepEqual(added.map((e) => e.event), expected.map((s) => ({ type: "saved_snippets", op: "add", saved_snippet: s })));
      assert.ok(added.every((e) => e.userIds.length === 1 && e.userIds[0] === t.users.hamlet.id));

      assert.equal((await t.as("hamlet").patch(`/saved_snippets/${first}`, { content: "Hello again" })).status, 200);
      const [updated] = eventsOf(t, "saved_snippets", "update");
      assert.deepEqual(updated.event, { type: "saved_snippets", op: "update", saved_snippet: { ...expected[0], content: "Hello again" } });
      assert.equal((await t.as("hamlet").patch(`/saved_snippets/${first}`, { title: "Hi" })).status, 200);

      assert.equal((await t.as("hamlet").delete(`/saved_snippets/${second}`)).status, 200);
      assert.deepEqual(eventsOf(t, "saved_snippets", "remove").map((e) => e.event), [{ type: "saved_snippets", op: "remove", saved_snippet_id: second }]);
      assert.deepEqual((await t.as("hamlet").get("/saved_snippets")).body.saved_snippets, [{ ...expected[0], title: "Hi", content: "Hello again" }]);
    });

    it("is in POST /register as saved_snippets, and only the caller's own", async () => {
      const id = await create("Mine", "text");
      await create("Theirs", "other", "othello");
      const state = (await t.as("hamlet").post("/register", { fetch_event_types: ["saved_snippets"] })).body;
      assert.deepEqual(state.saved_snippets, [{ id, title: "Mine", content: "text", date_created: t.clock.seconds }]);
      const all = (await t.as("hamlet").post("/register", {})).body;
      assert.deepEqual(all.saved_snippets, state.saved_snippets);
    });

    it("keeps a client's copy current: the events applied to register's list give a fresh register's list", async () => {
      const keep = await create("keep", "k");
      const gone = await create("gone", "g");
      const registered = (await t.as("hamlet").post("/register", { event_types: ["saved_snippets"] })).body;
      await create("new", "n");
      assert.equal((await t.as("hamlet").patch(`/saved_snippets/${keep}`, { title: "kept", content: "still here" })).status, 200);
      assert.equal((await t.as("hamlet").delete(`/saved_snippets/${gone}`)).status, 200);
      const events = (await t.as("hamlet").get("/events", { queue_id: registered.queue_id, last_event_id: -1, dont_block: true })).body.events as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
      let list = registered.saved_snippets as Array<{ id: number }>;
      for (const e of events) {
        // As the mobile app's store applies them (SavedSnippetsAddEvent / UpdateEvent / RemoveEvent).
        if (e.op === "add") list = [...list, e.saved_snippet];
        else if (e.op === "update") list = list.map((s) => (s.id === e.saved_snippet.id ? e.saved_snippet : s));
        else if (e.op === "remove") list = list.filter((s) => s.id !== e.saved_snippet_id);
      }
      assert.deepEqual(events.map((e) => e.op), ["add", "update", "remove"]);
      assert.deepEqual(list, (await t.as("hamlet").post("/register", { fetch_event_types: ["saved_snippets"] })).body.saved_snippets);
    });

    it("refuses blank and over-long titles and contents as Zulip's parameter checks word it", async () => {
      assertError(await t.as("hamlet").post("/saved_snippets", { title: "   ", content: "x" }), "title cannot be blank", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post("/saved_snippets", { title: "t", content: "\n\t " }), "content cannot be blank", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post("/saved_snippets", { title: "x".repeat(61), content: "c" }), "title is too long (limit: 60 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post("/saved_snippets", { title: "t", content: "c".repeat(10_001) }), "content is too long (limit: 10000 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post("/saved_snippets", { content: "c" }), "Missing 'title' argument", "REQUEST_VARIABLE_MISSING");
      // Lengths are counted after stripping, in characters (an astral character is one).
      assert.equal((await t.as("hamlet").post("/saved_snippets", { title: ` ${"🙂".repeat(60)} `, content: "c" })).status, 200);
      const id = await create("t", "c");
      assertError(await t.as("hamlet").patch(`/saved_snippets/${id}`, { title: "" }), "title cannot be blank", "REQUEST_VARIABLE_INVALID");
      assert.equal((await t.as("hamlet").get("/saved_snippets")).body.saved_snippets.length, 2);
    });

    it("answers 404 for a snippet that is missing or someone else's, changing nothing", async () => {
      const theirs = await create("Theirs", "other", "othello");
      t.published.length = 0;
      for (const id of [theirs, 999_999]) {
        assertError(await t.as("hamlet").patch(`/saved_snippets/${id}`, { title: "mine now" }), "Saved snippet does not exist.", "BAD_REQUEST", 404);
        assertError(await t.as("hamlet").delete(`/saved_snippets/${id}`), "Saved snippet does not exist.", "BAD_REQUEST", 404);
      }
      assert.equal(t.published.length, 0);
      assert.deepEqual((await t.as("othello").get("/saved_snippets")).body.saved_snippets.map((s: { title: string }) => s.title), ["Theirs"]);
    });

    it("treats an edit with nothing to change as Zulip does: success, no event, whatever the id", async () => {
      const id = await create("t", "c");
      t.published.length = 0;
      assert.equal((await t.as("hamlet").patch(`/saved_snippets/${id}`)).status, 200);
      assert.equal((await t.as("hamlet").patch("/saved_snippets/999999")).status, 200);
      assert.equal(t.published.length, 0);
    });

    it("is open to every account, bots and guests included", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).post("/saved_snippets", { title: "t", content: "c" }));
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get("/saved_snippets"));
    });
  });
}
