/**
 * The change stamp (src/store/change-stamp.ts) lets SQLite caches skip their version checks while
 * nothing has changed. Every kind of change must move it — this connection's writes through
 * Kysely or not, rolled back or not, and another connection's commits (another process) — and it
 * must refuse to vouch for anything while a transaction is open.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { changeStamp, sameStamp, StampMemo } from "../../src/store/change-stamp.js";
import { readTx, transaction, type Store } from "../../src/store/db.js";
import { behindTheBack } from "../helpers/behind-the-back.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

// A table of the test's own with one row, so each UPDATE changes a row.
const TOUCH = "UPDATE stamp_test SET n = n + 1";
const touch = (store: Store) => transaction(store, (tx) => sql.raw(TOUCH).execute(tx.db));

describe("the change stamp [sqlite file]", () => {
  let t: TestStore;
  before(async () => {
    t = await openTestStore("sqlite", { sqliteFile: true });
    t.store.sqlite!.raw.exec("CREATE TABLE stamp_test (n INTEGER); INSERT INTO stamp_test VALUES (0)");
  });
  after(() => t.cleanup());

  const stamp = () => changeStamp(readTx(t.store));

  it("stands still while the store is only read", async () => {
    const first = stamp();
    assert.ok(first);
    await sql`SELECT count(*) FROM users`.execute(t.store.db);
    assert.ok(sameStamp(first, stamp()));
  });

  it("moves with this connection's writes, through Kysely or not", async () => {
    const first = stamp();
    await touch(t.store);
    const second = stamp();
    assert.ok(!sameStamp(first, second));
    t.store.sqlite!.raw.prepare(TOUCH).run();
    assert.ok(!sameStamp(second, stamp()));
  });

  it("moves with a write that was rolled back (it may have been read meanwhile)", async () => {
    const first = stamp();
    await assert.rejects(
      transaction(t.store, async (tx) => {
        await sql.raw(TOUCH).execute(tx.db);
        throw new Error("roll back");
      }),
    );
    assert.ok(!sameStamp(first, stamp()));
  });

  it("moves when another connection commits, as another process would", async () => {
    const first = stamp();
    const other = new Database(t.store.sqlite!.raw.name);
    try {
      other.prepare(TOUCH).run();
    } finally {
      other.close();
    }
    assert.ok(!sameStamp(first, stamp()));
  });

  it("vouches for nothing while a transaction is open, nor inside one", async () => {
    await transaction(t.store, async (tx) => {
      await sql`SELECT 1`.execute(tx.db);
      assert.equal(changeStamp(tx), null);
      assert.equal(stamp(), null);
    });
    assert.ok(stamp());
  });

  it("memoises a read until the stamp moves", async () => {
    const memo = new StampMemo<string, number>();
    let reads = 0;
    const read = () => memo.get(readTx(t.store), "k", async () => ++reads);
    assert.equal(await read(), 1);
    assert.equal(await read(), 1);
    await touch(t.store);
    assert.equal(await read(), 2);
    // Inside a transaction nothing is memoised.
    await transaction(t.store, async (tx) => {
      assert.equal(await memo.get(tx, "k", async () => ++reads), 3);
    });
  });
});

for (const kind of STORE_KINDS.filter((k) => k !== "sqlite")) {
  describe(`the change stamp [${kind}]`, () => {
    let t: TestStore;
    before(async () => {
      t = await openTestStore(kind);
    });
    after(() => t.cleanup());

    it("is never given: every read checks as before", async () => {
      assert.equal(changeStamp(readTx(t.store)), null);
      const memo = new StampMemo<string, number>();
      let reads = 0;
      await memo.get(readTx(t.store), "k", async () => ++reads);
      assert.equal(await memo.get(readTx(t.store), "k", async () => ++reads), 2);
    });
  });
}

describe("authentication while a transaction is open [sqlite file]", () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite", {}, { sqliteFile: true });
  });
  after(() => t.close());

  it("refuses a user another process deactivated, though this connection's snapshot predates it", async () => {
    assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let request: ReturnType<ReturnType<TestRealm["as"]>["get"]> | undefined;
    await transaction(t.deps.store, async (tx) => {
      // The transaction's snapshot starts before the other process's commit.
      await sql`SELECT count(*) FROM users`.execute(tx.db);
      await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [false, t.users.hamlet.id]);
      request = t.as("hamlet").get("/users/me");
      setImmediate(release);
      await released;
    });
    try {
      const res = await request!;
      assert.equal(res.status, 401);
      assert.equal(res.body.msg, "Account is deactivated");
    } finally {
      await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [true, t.users.hamlet.id]);
    }
  });
});
