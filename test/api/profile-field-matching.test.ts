/**
 * Custom profile fields' use_for_user_matching (FL 455), on every store: off by default, set at
 * creation or by PATCH (administrators only), shown in GET /realm/profile_fields and register,
 * and announced by custom_profile_fields events.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`profile fields used for user matching [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const fields = async () => {
      const res = await t.as("hamlet").get("/realm/profile_fields");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.custom_fields as Array<{ id: number; name: string; use_for_user_matching: boolean }>;
    };

    it("sets the flag at creation and by PATCH, telling everyone", async () => {
      const plain = await t.as("iago").post("/realm/profile_fields", { field_type: 1, name: "Team" });
      assert.equal(plain.status, 200, JSON.stringify(plain.body));
      const matched = await t.as("iago").post("/realm/profile_fields", { field_type: 1, name: "Employee number", use_for_user_matching: true });
      assert.equal(matched.status, 200, JSON.stringify(matched.body));
      const byId = new Map((await fields()).map((f) => [f.id, f.use_for_user_matching]));
      assert.equal(byId.get(plain.body.id as number), false);
      assert.equal(byId.get(matched.body.id as number), true);

      t.published.length = 0;
      const res = await t.as("iago").patch(`/realm/profile_fields/${plain.body.id}`, { use_for_user_matching: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [event] = eventsOf(t, "custom_profile_fields");
      assert.ok(event.userIds.includes(t.users.hamlet.id));
      const sent = (event.event.fields as Array<{ id: number; use_for_user_matching: boolean }>).find((f) => f.id === plain.body.id);
      assert.equal(sent?.use_for_user_matching, true);
      const registered = await t.as("hamlet").post("/register", { fetch_event_types: ["custom_profile_fields"] });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const listed = (registered.body.custom_profile_fields as Array<{ id: number; use_for_user_matching: boolean }>).find((f) => f.id === plain.body.id);
      assert.equal(listed?.use_for_user_matching, true);
    });

    it("refuses a non-boolean and non-administrators", async () => {
      const created = await t.as("iago").post("/realm/profile_fields", { field_type: 1, name: "Desk" });
      const id = created.body.id as number;
      assertError(await t.as("iago").patch(`/realm/profile_fields/${id}`, { use_for_user_matching: 5 }), "use_for_user_matching is not a boolean", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").patch(`/realm/profile_fields/${id}`, { use_for_user_matching: true }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assert.equal((await fields()).find((f) => f.id === id)?.use_for_user_matching, false);
    });
  });
}
