/**
 * What creating an organization leaves in the store (zulip-facts section g): exactly the eight
 * system groups, nested owners ⊂ administrators ⊂ … ⊂ internet with role:nobody alone, the owner a
 * direct member of role:owners, and realm settings pointing at the realm's own groups.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { checkCreateUser } from "../../src/actions/users/users.js";
import { ApiError } from "../../src/errors.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getDirectGroupIds, getSystemGroups } from "../../src/store/groups.js";
import { countRealms, getRealmById } from "../../src/store/realms.js";
import { NOW } from "../helpers/rows.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

const NESTING = ["role:owners", "role:administrators", "role:moderators", "role:fullmembers", "role:members", "role:everyone", "role:internet"];

const input = (subdomain: string) => ({
  subdomain,
  name: `Org ${subdomain}`,
  ownerEmail: `owner@${subdomain || "root"}.test`,
  ownerName: "Owner",
  ownerPassword: "pw",
});

for (const kind of STORE_KINDS) {
  describe(`realm creation [${kind}]`, () => {
    let ts: TestStore;
    let realmId: number;
    let ownerId: number;
    let ids: Record<string, number>;
    before(async () => {
      ts = await openTestStore(kind);
      const created = await checkCreateRealm(ts.store, input("acme"), NOW);
      realmId = created.realmId;
      ownerId = created.owner.userId;
      ids = Object.fromEntries((await getSystemGroups(readTx(ts.store), realmId)).map((g) => [g.name as string, g.id]));
    });
    after(() => ts.cleanup());

    it("creates exactly the eight system groups", () => {
      assert.deepEqual(Object.keys(ids).sort(), ["role:nobody", ...NESTING].sort());
    });

    it("nests each role group directly inside the next, and role:nobody nowhere", async () => {
      const edges = await ts.store.db
        .selectFrom("user_group_subgroups")
        .select(["supergroup_id", "subgroup_id"])
        .where("supergroup_id", "in", Object.values(ids))
        .execute();
      const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
      const named = edges.map((e) => `${byId[e.subgroup_id]} ⊂ ${byId[e.supergroup_id]}`).sort();
      const expected = NESTING.slice(0, -1).map((g, i) => `${g} ⊂ ${NESTING[i + 1]}`).sort();
      assert.deepEqual(named, expected);
      const nobodyMembers = await ts.store.db.selectFrom("user_group_members").select("user_id").where("group_id", "=", ids["role:nobody"]).execute();
      assert.deepEqual(nobodyMembers, []);
    });

    it("makes the owner a direct member of role:owners only", async () => {
      assert.deepEqual(await getDirectGroupIds(readTx(ts.store), ownerId), [ids["role:owners"]]);
      const owner = await ts.store.db.selectFrom("users").selectAll().where("id", "=", ownerId).executeTakeFirstOrThrow();
      assert.deepEqual([owner.role, owner.delivery_email, owner.is_bot], [100, "owner@acme.test", false]);
    });

    it("locks the system groups' own settings to role:nobody", async () => {
      const rows = await ts.store.db.selectFrom("user_groups").selectAll().where("realm_id", "=", realmId).execute();
      for (const g of rows) {
        assert.equal(g.can_manage_group_id, ids["role:nobody"], g.name as string);
        assert.equal(g.can_add_members_group_id, ids["role:nobody"], g.name as string);
        assert.equal(g.can_mention_group_id, ids["role:everyone"], g.name as string);
      }
    });

    it("points the realm's group settings at its own system groups", async () => {
      const realm = (await getRealmById(readTx(ts.store), realmId))!;
      assert.equal(realm.can_create_groups_id, ids["role:members"]);
      assert.equal(realm.can_delete_any_message_group_id, ids["role:administrators"]);
      assert.equal(realm.can_manage_all_groups_id, ids["role:owners"]);
      const settingValues = Object.entries(realm).filter(([k]) => k.endsWith("_group_id") || k.endsWith("_groups_id") || k === "can_create_groups_id");
      assert.ok(settingValues.length >= 20);
      for (const [column, value] of settingValues) assert.ok(Object.values(ids).includes(value as number), column);
    });

    it("puts later members in role:members and, with no waiting period, role:fullmembers", async () => {
      const realm = (await getRealmById(readTx(ts.store), realmId))!;
      const member = await transaction(ts.store, (tx) => checkCreateUser(tx, realm, { email: "m@acme.test", fullName: "M", password: null }, NOW));
      assert.deepEqual((await getDirectGroupIds(readTx(ts.store), member.userId)).sort(), [ids["role:fullmembers"], ids["role:members"]].sort());
      const guest = await transaction(ts.store, (tx) => checkCreateUser(tx, realm, { email: "g@acme.test", fullName: "G", password: null, role: 600 }, NOW));
      assert.deepEqual(await getDirectGroupIds(readTx(ts.store), guest.userId), [ids["role:everyone"]]);
    });

    it("gives every realm its own groups, and refuses a taken or malformed subdomain without writing", async () => {
      const other = await checkCreateRealm(ts.store, input(""), NOW);
      const otherGroups = await getSystemGroups(readTx(ts.store), other.realmId);
      assert.equal(otherGroups.length, 8);
      assert.ok(otherGroups.every((g) => !Object.values(ids).includes(g.id)));
      const before = await countRealms(readTx(ts.store));
      await assert.rejects(checkCreateRealm(ts.store, input("ACME"), NOW), (e: ApiError) => e.message === "Subdomain is already in use.");
      await assert.rejects(checkCreateRealm(ts.store, input("bad_sub"), NOW), ApiError);
      await assert.rejects(checkCreateRealm(ts.store, { ...input("fine"), ownerEmail: "nope" }, NOW), ApiError);
      assert.equal(await countRealms(readTx(ts.store)), before);
      const groupCount = await ts.store.db.selectFrom("user_groups").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      assert.equal(Number(groupCount.n), 16, "a failed creation leaves no groups behind");
    });
  });
}
