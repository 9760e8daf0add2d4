/** Presence: update own, realm presence, one user's presence, events, coalesced writes. */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import { PRESENCE_OFFLINE_THRESHOLD_SECONDS } from "../../src/actions/users/presence.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const CURRENT_OPENAPI = resolve(process.cwd(), "../shared/reference/zulip-openapi-current.yaml");

/** Property names the current OpenAPI allows in the legacy presence objects, per answer. */
function allowedPresenceKeys(): { perUser: string[]; legacy: string[] } {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const doc = parse(readFileSync(CURRENT_OPENAPI, "utf8")) as any;
  const ok = doc.paths["/users/{user_id_or_email}/presence"].get.responses["200"].content["application/json"].schema.allOf[1];
  return {
    perUser: Object.keys(ok.properties.presence.additionalProperties.properties).sort(),
    legacy: Object.keys(doc.components.schemas.LegacyPresenceFormat.properties).sort(),
  };
}

const keysOf = (o: object) => Object.keys(o).sort();

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

    it("answers every presence shape as the current OpenAPI describes it: no client or pushable in one user's presence (FL 178)", async (c) => {
      t.clock.seconds += 1000;
      await t.as("hamlet").post("/users/me/presence", { status: "active", ping_only: true });
      const one = (await t.as("othello").get(`/users/${t.users.hamlet.id}/presence`)).body.presence;
      assert.deepEqual(keysOf(one), ["aggregated", "website"]);
      for (const key of ["aggregated", "website"]) assert.deepEqual(keysOf(one[key]), ["status", "timestamp"], key);
      assert.deepEqual(one.aggregated, { status: "active", timestamp: t.clock.now() });
      // The realm's legacy format keeps Zulip's fixed client/pushable, but never pushable in the aggregate.
      const legacy = (await t.as("othello").get("/realm/presence")).body.presences["hamlet@zulip.test"];
      assert.deepEqual(legacy.website, { client: "website", status: "active", timestamp: t.clock.now(), pushable: false });
      assert.deepEqual(legacy.aggregated, { client: "website", status: "active", timestamp: t.clock.now() });
      // Zulip's get_presence_backend: an aggregate older than the offline threshold reads "offline".
      t.clock.seconds += PRESENCE_OFFLINE_THRESHOLD_SECONDS + 1;
      const stale = (await t.as("othello").get(`/users/${t.users.hamlet.id}/presence`)).body.presence;
      assert.deepEqual([stale.aggregated.status, stale.website.status], ["offline", "active"]);
      if (!existsSync(CURRENT_OPENAPI)) return c.skip("../shared/reference/zulip-openapi-current.yaml is absent");
      const allowed = allowedPresenceKeys();
      for (const key of ["aggregated", "website"]) assert.ok(keysOf(one[key]).every((k) => allowed.perUser.includes(k)), `${key} ${keysOf(one[key])}`);
      for (const key of ["aggregated", "website"]) assert.ok(keysOf(legacy[key]).every((k) => allowed.legacy.includes(k)), `${key} ${keysOf(legacy[key])}`);
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
