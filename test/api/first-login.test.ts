/**
 * date_joined of an account made through POST /users becomes its first login's time (FL 475),
 * announced by a realm_user update; other accounts keep theirs, and later logins change nothing.
 * Every store.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { isoTimestamp } from "../../src/present/present-user.js";
import { readTx } from "../../src/store/db.js";
import { getUserById } from "../../src/store/users.js";
import { createTestRealm, PASSWORD, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`first login and date_joined [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const user = async (id: number) => (await getUserById(readTx(t.deps.store), t.realmId, id))!;
    const login = (username: string, password: string) => t.as(null).post("/fetch_api_key", { username, password });

    it("moves an API-created account's date_joined to its first login, telling those who can see it", async () => {
      const created = await t.as("iago").post("/users", { email: "ophelia@zulip.test", password: "a-long-password", full_name: "Ophelia" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.user_id as number;
      const createdAt = (await user(id)).date_joined;
      t.clock.seconds += 3600;
      t.published.length = 0;
      const first = await login("ophelia@zulip.test", "a-long-password");
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const after = await user(id);
      assert.equal(after.date_joined, createdAt + 3600);
      assert.equal(after.last_login, t.clock.seconds);
      const updates = eventsOf(t, "realm_user", "update");
      assert.equal(updates.length, 1);
      assert.deepEqual(updates[0].event.person, { user_id: id, date_joined: isoTimestamp(t.clock.seconds) });
      assert.ok(updates[0].userIds.includes(t.users.hamlet.id));
      const shown = (await t.as("hamlet").get(`/users/${id}`)).body.user as Record<string, unknown>;
      assert.equal(shown.date_joined, updates[0].event.person.date_joined);

      t.clock.seconds += 3600;
      t.published.length = 0;
      assert.equal((await login("ophelia@zulip.test", "a-long-password")).status, 200);
      assert.equal((await user(id)).date_joined, createdAt + 3600);
      assert.deepEqual(eventsOf(t, "realm_user", "update"), []);
    });

    it("leaves date_joined of other accounts, and of failed logins, alone", async () => {
      const hamlet = await user(t.users.hamlet.id);
      t.clock.seconds += 3600;
      t.published.length = 0;
      assert.equal((await login(hamlet.delivery_email, "wrong password")).status, 401);
      assert.equal((await user(hamlet.id)).last_login, null);
      assert.equal((await login(hamlet.delivery_email, PASSWORD)).status, 200);
      const after = await user(hamlet.id);
      assert.equal(after.date_joined, hamlet.date_joined);
      assert.equal(after.last_login, t.clock.seconds);
      assert.deepEqual(eventsOf(t, "realm_user", "update"), []);
    });
  });
}
