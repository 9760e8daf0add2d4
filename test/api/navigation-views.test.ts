/**
 * Navigation views (Zulip's get/add/edit/remove-navigation-view, FL 390), on every store: the
 * caller's own list in GET and register, events to their clients only, fragments with slashes in
 * the path either raw or percent-encoded, and the checks of zerver/views/navigation_views.py.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { MAX_NAVIGATION_VIEWS } from "../../src/actions/users/navigation-views.js";
import { transaction } from "../../src/store/db.js";
import { eventsOf } from "../helpers/channels.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`navigation views [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const add = (params: Record<string, unknown>, who: UserName = "hamlet") => t.as(who).post("/navigation_views", params);
    const list = async (who: UserName = "hamlet") => (await t.as(who).get("/navigation_views")).body.navigation_views;

    it("adds built-in settings and custom views, edits and removes them, telling only the owner's clients", async () => {
      t.published.length = 0;
      assert.equal((await add({ fragment: "inbox", is_pinned: false })).status, 200);
      assert.equal((await add({ fragment: " narrow/is/alerted ", is_pinned: true, name: " Alert words " })).status, 200);
      const expected = [
        { fragment: "inbox", is_pinned: false, name: null },
        { fragment: "narrow/is/alerted", is_pinned: true, name: "Alert words" },
      ];
      assert.deepEqual(await list(), expected);
      assert.deepEqual(await list("othello"), []);
      assert.deepEqual(eventsOf(t, "navigation_view", "add").map((e) => [e.event, e.userIds]), expected.map((v) => [{ type: "navigation_view", op: "add", navigation_view: v }, [t.users.hamlet.id]]));

      // The fragment in the path, raw (as the Python example sends it) or percent-encoded.
      assert.equal((await t.as("hamlet").patch("/navigation_views/narrow/is/alerted", { is_pinned: false })).status, 200);
      assert.equal((await t.as("hamlet").patch("/navigation_views/narrow%2Fis%2Falerted", { name: "Watched phrases" })).status, 200);
      assert.equal((await t.as("hamlet").patch("/navigation_views/inbox", { is_pinned: true })).status, 200);
      assert.deepEqual(eventsOf(t, "navigation_view", "update").map((e) => e.event), [
        { type: "navigation_view", op: "update", fragment: "narrow/is/alerted", data: { is_pinned: false } },
        { type: "navigation_view", op: "update", fragment: "narrow/is/alerted", data: { name: "Watched phrases" } },
        { type: "navigation_view", op: "update", fragment: "inbox", data: { is_pinned: true } },
      ]);
      assert.deepEqual(await list(), [
        { fragment: "inbox", is_pinned: true, name: null },
        { fragment: "narrow/is/alerted", is_pinned: false, name: "Watched phrases" },
      ]);

      assert.equal((await t.as("hamlet").delete("/navigation_views/narrow%2Fis%2Falerted")).status, 200);
      assert.deepEqual(eventsOf(t, "navigation_view", "remove").map((e) => [e.event, e.userIds]), [
        [{ type: "navigation_view", op: "remove", fragment: "narrow/is/alerted" }, [t.users.hamlet.id]],
      ]);
      assert.deepEqual(await list(), [{ fragment: "inbox", is_pinned: true, name: null }]);
    });

    it("is in POST /register as navigation_views, and events applied to it give a fresh register's list", async () => {
      await add({ fragment: "recent", is_pinned: true });
      await add({ fragment: "narrow/is/mentioned", is_pinned: false });
      const registered = (await t.as("hamlet").post("/register", { event_types: ["navigation_view"] })).body;
      assert.deepEqual(registered.navigation_views, await list());
      await add({ fragment: "narrow/channel/1-general", is_pinned: true, name: "General" });
      await t.as("hamlet").patch("/navigation_views/recent", { is_pinned: false });
      await t.as("hamlet").delete("/navigation_views/narrow/is/mentioned");
      await t.as("hamlet").patch("/navigation_views/recent");
      const events = (await t.as("hamlet").get("/events", { queue_id: registered.queue_id, last_event_id: -1, dont_block: true })).body.events as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
      let views = registered.navigation_views as Array<Record<string, unknown>>;
      for (const e of events) {
        if (e.op === "add") views = [...views, e.navigation_view];
        else if (e.op === "update") views = views.map((v) => (v.fragment === e.fragment ? { ...v, ...e.data } : v));
        else if (e.op === "remove") views = views.filter((v) => v.fragment !== e.fragment);
      }
      // An edit naming nothing to change still succeeds and is announced, with empty data (as in Zulip).
      assert.deepEqual(events.map((e) => e.op), ["add", "update", "remove", "update"]);
      assert.deepEqual(events[3].data, {});
      assert.deepEqual(views, (await t.as("hamlet").post("/register", { fetch_event_types: ["navigation_views"] })).body.navigation_views);
    });

    it("refuses as zerver/views/navigation_views.py does, changing nothing", async () => {
      await add({ fragment: "narrow/is/alerted", is_pinned: true, name: "Alerts" });
      t.published.length = 0;
      assertError(await add({ fragment: "inbox", is_pinned: true, name: "My inbox" }), "Built-in views cannot have a custom name.");
      assertError(await add({ fragment: "narrow/is/private", is_pinned: true }), "Custom views must have a valid name.");
      assertError(await add({ fragment: "narrow/is/alerted", is_pinned: false, name: "Other" }), "Navigation view already exists.");
      assertError(await add({ fragment: "narrow/is/followed", is_pinned: false, name: "Alerts" }), "Navigation view already exists.");
      assertError(await add({ fragment: "   ", is_pinned: false, name: "x" }), "fragment cannot be blank", "REQUEST_VARIABLE_INVALID");
      assertError(await add({ fragment: "narrow/x", is_pinned: false, name: " " }), "name cannot be blank", "REQUEST_VARIABLE_INVALID");
      assertError(await add({ fragment: "narrow/x", name: "x" }), "Missing 'is_pinned' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await add({ fragment: "narrow/x", is_pinned: 5, name: "x" }), "is_pinned is not a boolean", "REQUEST_VARIABLE_INVALID");
      assertError(await add({ fragment: "x".repeat(501), is_pinned: false, name: "x" }), "fragment is too long (limit: 500 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await add({ fragment: "narrow/x", is_pinned: false, name: "x".repeat(201) }), "name is too long (limit: 200 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").patch("/navigation_views/inbox", { name: "Mine" }), "Built-in views cannot have a custom name.");
      assertError(await t.as("hamlet").patch("/navigation_views/narrow/is/alerted", { name: "Alerts" }), "Navigation view already exists.");
      for (const path of ["/navigation_views/feed", "/navigation_views/narrow/is/alerted/extra"]) {
        assertError(await t.as("hamlet").patch(path, { is_pinned: true }), "Navigation view does not exist.", "BAD_REQUEST", 404);
        assertError(await t.as("hamlet").delete(path), "Navigation view does not exist.", "BAD_REQUEST", 404);
      }
      // Someone else's view is as good as missing.
      assertError(await t.as("othello").delete("/navigation_views/narrow/is/alerted"), "Navigation view does not exist.", "BAD_REQUEST", 404);
      assert.equal(t.published.length, 0);
      assert.deepEqual(await list(), [{ fragment: "narrow/is/alerted", is_pinned: true, name: "Alerts" }]);
    });

    it(`keeps at most ${MAX_NAVIGATION_VIEWS} views a user (Parley's bound, docs/LIMITS.md)`, async () => {
      await transaction(t.deps.store, async (tx) => {
        const rows = Array.from({ length: MAX_NAVIGATION_VIEWS }, (_, i) => ({ user_id: t.users.hamlet.id, fragment: `narrow/v${i}`, is_pinned: false, name: `v${i}` }));
        await tx.db.insertInto("navigation_views").values(rows).execute();
      });
      assertError(await add({ fragment: "narrow/one-more", is_pinned: false, name: "more" }), `You can have at most ${MAX_NAVIGATION_VIEWS} navigation views.`);
      assert.equal((await add({ fragment: "narrow/one-more", is_pinned: false, name: "more" }, "othello")).status, 200);
    });

    it("is open to every account, bots and guests included", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => add({ fragment: "feed", is_pinned: true }, who));
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).patch("/navigation_views/feed", { is_pinned: false }));
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get("/navigation_views"));
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).delete("/navigation_views/feed"));
    });
  });
}
