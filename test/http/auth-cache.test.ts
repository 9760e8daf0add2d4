/**
 * Authentication keeps user and realm rows in memory and checks their versions on every request
 * (src/store/auth-rows.ts). These tests change the rows *behind the process's back* — with SQL on
 * another connection on PostgreSQL, on the raw SQLite connection otherwise, as another Parley
 * process or a `manage` command would — and expect the very next request to see the change.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { getUserAndRealmByApiKey } from "../../src/store/auth-rows.js";
import { behindTheBack } from "../helpers/behind-the-back.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const unauthorized = (msg: string) => ({ result: "error", msg, code: "UNAUTHORIZED" });

const VARIANTS = [...STORE_KINDS.map((kind) => ({ kind, sqliteFile: false })), { kind: "sqlite" as const, sqliteFile: true }];

for (const { kind, sqliteFile } of VARIANTS) {
  describe(`authentication's row cache [${kind}${sqliteFile ? " file, changed by another connection" : ""}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind, {}, { sqliteFile });
    });
    after(() => t.close());
    beforeEach(async () => {
      // Every test starts from cached rows, so a change must defeat the cache to be seen.
      assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
    });

    it("refuses a user deactivated elsewhere on the next request, and lets them back in", async () => {
      await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [false, t.users.hamlet.id]);
      const res = await t.as("hamlet").get("/users/me");
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, unauthorized("Account is deactivated"));
      await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [true, t.users.hamlet.id]);
      assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
    });

    it("refuses the old API key as soon as it is replaced elsewhere", async () => {
      const newKey = "A".repeat(32);
      await behindTheBack(t, "UPDATE users SET api_key = $1 WHERE id = $2", [newKey, t.users.hamlet.id]);
      try {
        const old = await t.as("hamlet").get("/users/me");
        assert.equal(old.status, 401);
        assert.deepEqual(old.body, unauthorized("Invalid API key"));
        assert.equal((await t.as({ ...t.users.hamlet, apiKey: newKey }).get("/users/me")).status, 200);
      } finally {
        await behindTheBack(t, "UPDATE users SET api_key = $1 WHERE id = $2", [t.users.hamlet.apiKey, t.users.hamlet.id]);
      }
    });

    it("refuses the old API key once the user regenerates it through the API", async () => {
      const res = await t.as("othello").post("/users/me/api_key/regenerate");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await t.as("othello").get("/users/me")).status, 401);
      const renewed = { ...t.users.othello, apiKey: res.body.api_key as string };
      assert.equal((await t.as(renewed).get("/users/me")).status, 200);
      t.users.othello = renewed;
    });

    it("applies a role changed elsewhere to the next request's permission checks", async () => {
      // An administrators' endpoint: members get the role error, administrators reach the handler.
      const refusedForRole = async () => (await t.as("hamlet").delete("/realm/filters/999999")).body.msg === "Must be an organization administrator";
      assert.equal(await refusedForRole(), true);
      await behindTheBack(t, "UPDATE users SET role = $1 WHERE id = $2", [200, t.users.hamlet.id]);
      try {
        const me = await t.as("hamlet").get("/users/me");
        assert.equal(me.body.role, 200);
        assert.equal(me.body.is_admin, true);
        assert.equal(await refusedForRole(), false);
      } finally {
        await behindTheBack(t, "UPDATE users SET role = $1 WHERE id = $2", [400, t.users.hamlet.id]);
      }
      assert.equal(await refusedForRole(), true);
    });

    it("refuses everyone of a realm deactivated elsewhere", async () => {
      await behindTheBack(t, "UPDATE realms SET deactivated = $1 WHERE id = $2", [true, t.realmId]);
      try {
        const res = await t.as("hamlet").get("/users/me");
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, unauthorized("This organization has been deactivated"));
      } finally {
        await behindTheBack(t, "UPDATE realms SET deactivated = $1 WHERE id = $2", [false, t.realmId]);
      }
      assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
    });

    it("serves a profile edited elsewhere, not the remembered one", async () => {
      await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", ["Prince Hamlet", t.users.hamlet.id]);
      try {
        assert.equal((await t.as("hamlet").get("/users/me")).body.full_name, "Prince Hamlet");
      } finally {
        await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", ["King Hamlet", t.users.hamlet.id]);
      }
    });

    it("hands out copies: a caller changing its rows changes nothing for the next", async () => {
      const tx = readTx(t.deps.store);
      const first = (await getUserAndRealmByApiKey(tx, t.users.hamlet.apiKey))!;
      first.user.role = 100;
      first.realm.deactivated = true;
      const second = (await getUserAndRealmByApiKey(tx, t.users.hamlet.apiKey))!;
      assert.equal(second.user.role, 400);
      assert.equal(second.realm.deactivated, false);
    });

    it("finds nothing for an unknown key", async () => {
      assert.equal(await getUserAndRealmByApiKey(readTx(t.deps.store), "B".repeat(32)), undefined);
    });
  });
}
