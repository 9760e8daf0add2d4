/** Presence: update own, realm presence, one user's presence, events, coalesced writes. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`presence [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("records an active ping and reports realm presence in both formats", async () => {
      const res = await t.as("hamlet").post("/users/me/presence", { status: "active", slim_presence: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.presences[String(t.users.hamlet.id)], { active_timestamp: t.clock.now(), idle_timestamp: t.clock.now() });
      assert.equal(res.body.server_timestamp, t.clock.now());
      const legacy = await t.as("othello").get("/realm/presence");
      assert.equal(legacy.body.presences["hamlet@zulip.test"].aggregated.status, "active");
      const one = await t.as("othello").get(`/users/${t.users.hamlet.id}/presence`);
      assert.equal(one.body.presence.website.status, "active");
      const byEmail = await t.as("othello").get(`/users/hamlet@zulip.test/presence`);
      assert.equal(byEmail.status, 200);
    });

    it("publishes a presence event when a user comes online, not for steady pings", async () => {
      t.published.length = 0;
      await t.as("othello").post("/users/me/presence", { status: "active", ping_only: true });
      await t.deps.presence.flush();
      const first = t.published.filter((p) => p.event.type === "presence");
      assert.equal(first.length, 1);
      assert.equal(first[0].event.user_id, t.users.othello.id);
      t.clock.seconds += 10;
      await t.as("othello").post("/users/me/presence", { status: "active", ping_only: true });
      await t.deps.presence.flush();
      assert.equal(t.published.filter((p) => p.event.type === "presence").length, 1);
    });

    it("returns only changes since last_update_id", async () => {
      const all = await t.as("cordelia").post("/users/me/presence", { status: "idle", last_update_id: -1 });
      const latest = all.body.presence_last_update_id;
      assert.ok(latest >= 1);
      const none = await t.as("cordelia").post("/users/me/presence", { status: "idle", last_update_id: latest });
      assert.deepEqual(none.body.presences, {});
    });

    it("refuses bad input", async () => {
      const bad = await t.as("hamlet").post("/users/me/presence", { status: "away" });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.msg, "Invalid status");
      const missing = await t.as("hamlet").post("/users/me/presence", {});
      assert.equal(missing.body.code, "REQUEST_VARIABLE_MISSING");
      const nobody = await t.as("hamlet").get("/users/424242/presence");
      assert.equal(nobody.status, 400);
    });
  });
}
