/**
 * The change stamp (src/store/change-stamp.ts) lets SQLite caches skip their version checks while
 * nothing has changed. Every kind of change must move it — this connection's writes through
 * Kysely or not, rolled back or not, and another connection's commits (another process) — and it
 * must refuse to vouch for anything while a transaction is open. On PostgreSQL the authentication
 * statement's snapshot is the request's stamp: any session's commit or rollback must move it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { sql } from "kysely";
import { getUserAndRealmByApiKey } from "../../src/store/auth-rows.js";
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

    it("is never given without a statement: every read checks as before", async () => {
      assert.equal(changeStamp(readTx(t.store)), null);
      const memo = new StampMemo<string, number>();
      let reads = 0;
      await memo.get(readTx(t.store), "k", async () => ++reads);
      assert.equal(await memo.get(readTx(t.store), "k", async () => ++reads), 2);
    });
  });

  describe(`the authentication snapshot as the request's stamp [${kind}]`, () => {
    let t: TestRealm;
    let other: pg.Client;
    before(async () => {
      t = await createTestRealm(kind);
      other = new pg.Client({ connectionString: t.testStore.url });
      await other.connect();
      await other.query("CREATE TABLE IF NOT EXISTS stamp_test (n INTEGER); INSERT INTO stamp_test VALUES (0)");
    });
    after(async () => {
      await other.end();
      await t.close();
    });

    const authStamp = async () => {
      const found = await getUserAndRealmByApiKey(readTx(t.deps.store), t.users.hamlet.apiKey);
      assert.ok(found?.stamp?.snapshot, "the statement returns its snapshot");
      return found.stamp;
    };

    it("stands still while the store is only read, and moves when any session commits", async () => {
      const first = await authStamp();
      await sql`SELECT count(*) FROM users`.execute(t.deps.store.db);
      assert.ok(sameStamp(first, await authStamp()));
      await other.query("UPDATE stamp_test SET n = n + 1");
      assert.ok(!sameStamp(first, await authStamp()));
    });

    it("moves when a transaction in progress at the first stamp commits later", async () => {
      await other.query("BEGIN");
      await other.query("UPDATE stamp_test SET n = n + 1");
      const during = await authStamp();
      assert.ok(sameStamp(during, await authStamp()), "nothing has ended yet");
      await other.query("COMMIT");
      assert.ok(!sameStamp(during, await authStamp()));
    });

    it("moves when a transaction rolls back (its rows may have been read meanwhile)", async () => {
      await other.query("BEGIN");
      await other.query("UPDATE stamp_test SET n = n + 1");
      const during = await authStamp();
      await other.query("ROLLBACK");
      assert.ok(!sameStamp(during, await authStamp()));
    });

    it("is not given inside a transaction (its snapshot would include its own writes)", async () => {
      await transaction(t.deps.store, async (tx) => {
        const found = await getUserAndRealmByApiKey(tx, t.users.hamlet.apiKey);
        assert.ok(found);
        assert.equal(found.stamp, null);
      });
    });

    it("lets a request's memos skip their reads until something commits", async () => {
      const memo = new StampMemo<string, number>();
      let reads = 0;
      const read = async () => memo.get(readTx(t.deps.store, await authStamp()), "k", async () => ++reads);
      assert.equal(await read(), 1);
      assert.equal(await read(), 1);
      await other.query("UPDATE stamp_test SET n = n + 1");
      assert.equal(await read(), 2);
      await transaction(t.deps.store, async (tx) => {
        assert.equal(await memo.get({ ...tx, stamp: await authStamp() }, "k", async () => ++reads), 3, "never inside a transaction");
      });
    });

    it("GET /users/me and typing see changes made behind their back at once", async () => {
      const me = t.as("hamlet");
      const first = await me.get("/users/me");
      assert.equal(first.status, 200);
      assert.equal((await me.get("/users/me")).body.max_message_id, first.body.max_message_id);
      // A message hamlet did not receive; he is given it behind Parley's back.
      const sent = await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([t.users.cordelia.id]), content: "not for hamlet" });
      assert.equal(sent.status, 200);
      const id = sent.body.id as number;
      assert.equal((await me.get("/users/me")).body.max_message_id, first.body.max_message_id);
      await other.query("INSERT INTO user_messages (user_id, message_id, flags) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING", [t.users.hamlet.id, id]);
      await other.query("UPDATE users SET full_name = 'Hamlet Renamed' WHERE id = $1", [t.users.hamlet.id]);
      const after = await me.get("/users/me");
      assert.equal(after.body.full_name, "Hamlet Renamed");
      assert.equal(after.body.max_message_id, id);
      // A typing recipient deactivated behind the back is refused on the next request.
      assert.equal((await me.post("/typing", { op: "start", to: JSON.stringify([t.users.othello.id]) })).status, 200);
      await other.query("UPDATE users SET is_active = false WHERE id = $1", [t.users.othello.id]);
      try {
        const refused = await me.post("/typing", { op: "start", to: JSON.stringify([t.users.othello.id]) });
        assert.equal(refused.status, 400);
        assert.equal(refused.body.msg, `Invalid user ID ${t.users.othello.id}`);
      } finally {
        await other.query("UPDATE users SET is_active = true WHERE id = $1", [t.users.othello.id]);
      }
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
