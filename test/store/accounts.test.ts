/** The realms, users and groups store modules, on every store kind. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import {
  addGroupMembers,
  addSubgroups,
  getDirectGroupIds,
  getSystemGroups,
  insertGroup,
  removeGroupMembers,
  updateGroup,
} from "../../src/store/groups.js";
import {
  countRealms,
  getRealmById,
  getRealmBySubdomain,
  getRealmUserDefaults,
  insertAuditLog,
  insertRealmUserDefaults,
  updateRealm,
} from "../../src/store/realms.js";
import { getUserAndRealmByApiKey, getUserByDeliveryEmail, getUserById, listUsers, updateUser } from "../../src/store/users.js";
import { NOW, realmRow, userRow } from "../helpers/rows.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`realms, users and groups store [${kind}]`, () => {
    let ts: TestStore;
    let realmA: number;
    let realmB: number;
    const read = () => readTx(ts.store);
    before(async () => {
      ts = await openTestStore(kind);
      [realmA, realmB] = await transaction(ts.store, async (tx) => [await realmRow(tx, "a", "Alpha"), await realmRow(tx, "")]);
    });
    after(() => ts.cleanup());

    it("finds realms by subdomain (root is the empty string) and id, counts and updates them", async () => {
      assert.equal((await getRealmBySubdomain(read(), "a"))?.id, realmA);
      assert.equal((await getRealmBySubdomain(read(), ""))?.id, realmB);
      assert.equal(await getRealmBySubdomain(read(), "A"), undefined, "subdomains are stored lower-case by the actions");
      assert.equal(await getRealmBySubdomain(read(), "missing"), undefined);
      assert.equal((await getRealmById(read(), realmA))?.name, "Alpha");
      assert.equal(await getRealmById(read(), 999_999), undefined);
      assert.equal(await countRealms(read()), 2);
      await transaction(ts.store, (tx) => updateRealm(tx, realmA, { name: "Alpha 2", waiting_period_threshold: 3 }));
      const updated = (await getRealmById(read(), realmA))!;
      assert.deepEqual([updated.name, updated.waiting_period_threshold, updated.description], ["Alpha 2", 3, ""]);
    });

    it("stores realm user-settings defaults, with {} when none were written", async () => {
      assert.equal(await getRealmUserDefaults(read(), realmB), "{}");
      await transaction(ts.store, (tx) => insertRealmUserDefaults(tx, realmA, '{"twenty_four_hour_time":true}'));
      assert.equal(await getRealmUserDefaults(read(), realmA), '{"twenty_four_hour_time":true}');
    });

    it("writes audit log entries with JSON extra data", async () => {
      await transaction(ts.store, (tx) => insertAuditLog(tx, { realm_id: realmA, event_type: "realm_created", event_time: NOW, extra_data: { x: 1 } }));
      const row = await read().db.selectFrom("audit_log").selectAll().where("realm_id", "=", realmA).executeTakeFirstOrThrow();
      assert.deepEqual([row.event_type, row.event_time, JSON.parse(row.extra_data), row.acting_user_id], ["realm_created", NOW, { x: 1 }, null]);
    });

    it("inserts users and finds them by id within their realm only", async () => {
      const id = await transaction(ts.store, (tx) => userRow(tx, realmA, "Ann@A.test", { full_name: "Ann" }));
      const ann = (await getUserById(read(), realmA, id))!;
      assert.deepEqual([ann.email, ann.delivery_email, ann.full_name, ann.role, ann.settings, ann.avatar_source], ["Ann@A.test", "Ann@A.test", "Ann", 400, "{}", "G"]);
      assert.equal(await getUserById(read(), realmB, id), undefined);
    });

    it("finds users by delivery email case-insensitively, within one realm", async () => {
      await transaction(ts.store, (tx) => userRow(tx, realmA, "bob@a.test"));
      assert.equal((await getUserByDeliveryEmail(read(), realmA, "BOB@A.TEST"))?.delivery_email, "bob@a.test");
      assert.equal((await getUserByDeliveryEmail(read(), realmA, "ann@a.test"))?.full_name, "Ann");
      assert.equal(await getUserByDeliveryEmail(read(), realmB, "bob@a.test"), undefined);
    });

    it("enforces one account per delivery email per realm, ignoring case", async () => {
      await assert.rejects(transaction(ts.store, (tx) => userRow(tx, realmA, "BoB@a.TEST")));
      const other = await transaction(ts.store, (tx) => userRow(tx, realmB, "bob@a.test"));
      assert.equal((await getUserById(read(), realmB, other))?.realm_id, realmB);
      assert.equal((await listUsers(read(), realmA)).filter((u) => u.delivery_email.toLowerCase() === "bob@a.test").length, 1);
    });

    it("enforces unique API keys", async () => {
      const taken = (await getUserByDeliveryEmail(read(), realmA, "bob@a.test"))!.api_key;
      await assert.rejects(transaction(ts.store, (tx) => userRow(tx, realmA, "carol@a.test", { api_key: taken })));
    });

    it("resolves an API key to its user and realm, and updates users", async () => {
      const bob = (await getUserByDeliveryEmail(read(), realmA, "bob@a.test"))!;
      const found = await getUserAndRealmByApiKey(read(), bob.api_key);
      assert.deepEqual([found?.user.id, found?.realm.id, found?.realm.string_id], [bob.id, realmA, "a"]);
      assert.equal(await getUserAndRealmByApiKey(read(), "x".repeat(32)), undefined);
      await transaction(ts.store, (tx) => updateUser(tx, bob.id, { full_name: "Robert", is_active: false, role: 200 }));
      const after = (await getUserById(read(), realmA, bob.id))!;
      assert.deepEqual([after.full_name, after.is_active, after.role], ["Robert", false, 200]);
    });

    it("lists a realm's users in id order", async () => {
      const ids = (await listUsers(read(), realmA)).map((u) => u.id);
      assert.deepEqual(ids, [...ids].sort((x, y) => x - y));
      assert.ok(ids.length >= 2);
      assert.deepEqual((await listUsers(read(), realmB)).map((u) => u.delivery_email), ["bob@a.test"]);
    });

    it("manages groups: insert, update, direct members (idempotent) and subgroups", async () => {
      const [u1, u2] = await transaction(ts.store, async (tx) => [await userRow(tx, realmA, "g1@a.test"), await userRow(tx, realmA, "g2@a.test")]);
      const { sys, named, sub } = await transaction(ts.store, async (tx) => {
        const sys = await insertGroup(tx, { realm_id: realmA, name: "role:test", date_created: NOW, creator_id: null, is_system_group: true });
        const named = await insertGroup(tx, { realm_id: realmA, name: "Team", date_created: NOW, creator_id: u1 });
        const sub = await insertGroup(tx, { realm_id: realmA, name: null, date_created: NOW, creator_id: null });
        await updateGroup(tx, named, { description: "the team", can_manage_group_id: sys });
        await addGroupMembers(tx, named, [u1, u2]);
        await addGroupMembers(tx, named, [u1]);
        await addGroupMembers(tx, sys, []);
        await addSubgroups(tx, named, [sub]);
        await addSubgroups(tx, named, [sub]);
        return { sys, named, sub };
      });
      assert.deepEqual((await getSystemGroups(read(), realmA)).map((g) => g.id), [sys]);
      assert.deepEqual(await getSystemGroups(read(), realmB), []);
      const team = await read().db.selectFrom("user_groups").selectAll().where("id", "=", named).executeTakeFirstOrThrow();
      assert.deepEqual([team.description, team.can_manage_group_id, team.is_system_group, team.deactivated], ["the team", sys, false, false]);
      assert.deepEqual(await getDirectGroupIds(read(), u1), [named]);
      const subs = await read().db.selectFrom("user_group_subgroups").selectAll().where("supergroup_id", "=", named).execute();
      assert.deepEqual(subs, [{ supergroup_id: named, subgroup_id: sub }]);
      await transaction(ts.store, (tx) => removeGroupMembers(tx, named, [u1]));
      assert.deepEqual(await getDirectGroupIds(read(), u1), []);
      assert.deepEqual(await getDirectGroupIds(read(), u2), [named]);
    });

    it("keeps group names unique within a realm", async () => {
      await assert.rejects(transaction(ts.store, (tx) => insertGroup(tx, { realm_id: realmA, name: "Team", date_created: NOW, creator_id: null })));
      await transaction(ts.store, (tx) => insertGroup(tx, { realm_id: realmB, name: "Team", date_created: NOW, creator_id: null }));
    });

    it("allows any number of anonymous (unnamed) groups, as group-setting values need", async () => {
      await transaction(ts.store, async (tx) => {
        for (let i = 0; i < 3; i++) await insertGroup(tx, { realm_id: realmA, name: null, date_created: NOW, creator_id: null });
      });
      const anonymous = await read().db.selectFrom("user_groups").select("id").where("realm_id", "=", realmA).where("name", "is", null).execute();
      assert.equal(anonymous.length, 4);
    });
  });
}
