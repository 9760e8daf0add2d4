/**
 * A user's groups (src/store/groups.ts getRecursiveGroupIds) are kept under the change stamp: a
 * membership change, through a transaction or behind Parley's back, must show at once, and each
 * caller gets a set of its own.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { addGroupMembers, getRecursiveGroupIds, getSystemGroupByName, removeGroupMembers } from "../../src/store/groups.js";
import { behindTheBack } from "../helpers/behind-the-back.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`a user's groups under the change stamp [${kind}]`, () => {
    let t: TestRealm;
    let admins: number;
    before(async () => {
      t = await createTestRealm(kind);
      admins = (await getSystemGroupByName(readTx(t.deps.store), t.realmId, "role:administrators")).id;
    });
    after(() => t.close());

    const groupsOf = (userId: number) => getRecursiveGroupIds(readTx(t.deps.store), userId);

    it("gives each caller a set of its own", async () => {
      const first = await groupsOf(t.users.hamlet.id);
      first.add(-1);
      assert.ok(!(await groupsOf(t.users.hamlet.id)).has(-1));
    });

    it("shows a membership added or removed in a transaction at once", async () => {
      const hamlet = t.users.hamlet.id;
      assert.ok(!(await groupsOf(hamlet)).has(admins));
      await transaction(t.deps.store, (tx) => addGroupMembers(tx, admins, [hamlet]));
      assert.ok((await groupsOf(hamlet)).has(admins));
      await transaction(t.deps.store, (tx) => removeGroupMembers(tx, admins, [hamlet]));
      assert.ok(!(await groupsOf(hamlet)).has(admins));
    });

    it("shows the supergroups of a new membership at any depth (owners are administrators and moderators)", async () => {
      const hamlet = t.users.hamlet.id;
      const tx = readTx(t.deps.store);
      const [owners, moderators] = [await getSystemGroupByName(tx, t.realmId, "role:owners"), await getSystemGroupByName(tx, t.realmId, "role:moderators")];
      assert.ok(!(await groupsOf(hamlet)).has(moderators.id));
      await transaction(t.deps.store, (tx) => addGroupMembers(tx, owners.id, [hamlet]));
      const now = await groupsOf(hamlet);
      assert.ok(now.has(owners.id) && now.has(admins) && now.has(moderators.id));
      await transaction(t.deps.store, (tx) => removeGroupMembers(tx, owners.id, [hamlet]));
      assert.ok(!(await groupsOf(hamlet)).has(moderators.id));
    });

    it("shows a membership written behind Parley's back", async () => {
      const othello = t.users.othello.id;
      assert.ok(!(await groupsOf(othello)).has(admins));
      await behindTheBack(t, "INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2)", [admins, othello]);
      assert.ok((await groupsOf(othello)).has(admins));
    });
  });
}
