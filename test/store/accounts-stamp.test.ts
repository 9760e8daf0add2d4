/**
 * Authentication skips its version statement on SQLite while no `users` or `realms` row has
 * changed (src/store/accounts-watch.ts), even though other rows — messages being sent — have. Every
 * change to an account must still be seen by the very next request: made by this process, rolled
 * back, made by another connection, or hidden from the watch by a table rebuilt under it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { AccountsWatch } from "../../src/store/accounts-watch.js";
import { getUserAndRealmByApiKey } from "../../src/store/auth-rows.js";
import { changeStamp, sameStamp } from "../../src/store/change-stamp.js";
import { readTx, transaction } from "../../src/store/db.js";
import { behindTheBack } from "../helpers/behind-the-back.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";

describe("authentication across writes to other tables [sqlite file]", () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite", {}, { sqliteFile: true });
  });
  after(() => t.close());

  /** Authenticates hamlet and counts the statements it ran (every statement is prepared through the connection). */
  async function authenticate(): Promise<{ fullName: string; realmName: string; statements: number }> {
    const conn = t.deps.store.sqlite!;
    const prepare = conn.prepare.bind(conn);
    let statements = 0;
    conn.prepare = (text: string) => {
      statements++;
      return prepare(text);
    };
    try {
      const found = await getUserAndRealmByApiKey(readTx(t.deps.store), t.users.hamlet.apiKey);
      assert.ok(found);
      return { fullName: found.user.full_name, realmName: found.realm.name, statements };
    } finally {
      conn.prepare = prepare;
    }
  }

  const send = async () => {
    const res = await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([t.users.cordelia.id]), content: "busy" });
    assert.equal(res.status, 200);
  };

  it("runs no statement after a message was sent, though the change stamp moved", async () => {
    await authenticate();
    const before = changeStamp(readTx(t.deps.store));
    await send();
    assert.ok(!sameStamp(before, changeStamp(readTx(t.deps.store))), "the send changed rows");
    assert.equal((await authenticate()).statements, 0);
    assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
  });

  it("sees this process's change of a user or a realm at once", async () => {
    await authenticate();
    await transaction(t.deps.store, (tx) => tx.db.updateTable("users").set({ full_name: "Hamlet II" }).where("id", "=", t.users.hamlet.id).execute());
    await send();
    const renamed = await authenticate();
    assert.equal(renamed.fullName, "Hamlet II");
    assert.ok(renamed.statements > 0);
    await transaction(t.deps.store, (tx) => tx.db.updateTable("realms").set({ name: "Elsinore" }).where("id", "=", t.realmId).execute());
    assert.equal((await authenticate()).realmName, "Elsinore");
    assert.equal((await authenticate()).statements, 0, "and trusts its memo again");
  });

  it("checks again after a change to an account that was rolled back", async () => {
    await authenticate();
    await assert.rejects(
      transaction(t.deps.store, async (tx) => {
        await tx.db.updateTable("users").set({ full_name: "Never" }).where("id", "=", t.users.hamlet.id).execute();
        throw new Error("roll back");
      }),
    );
    const after = await authenticate();
    assert.notEqual(after.fullName, "Never");
    assert.ok(after.statements > 0);
  });

  it("refuses at once a user another process deactivated, after sends of its own", async () => {
    assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
    await send();
    await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [false, t.users.hamlet.id]);
    try {
      const res = await t.as("hamlet").get("/users/me");
      assert.equal(res.status, 401);
      assert.equal(res.body.msg, "Account is deactivated");
    } finally {
      await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [true, t.users.hamlet.id]);
    }
    assert.equal((await t.as("hamlet").get("/users/me")).status, 200);
  });

  it("leaves other connections free to write accounts (its triggers are this connection's own)", async () => {
    const other = new Database(t.deps.store.sqlite!.raw.name);
    try {
      other.prepare("UPDATE users SET full_name = ? WHERE id = ?").run("Hamlet III", t.users.hamlet.id);
      assert.equal(other.prepare("SELECT count(*) FROM sqlite_temp_master").pluck().get(), 0);
    } finally {
      other.close();
    }
    assert.equal((await authenticate()).fullName, "Hamlet III");
  });
});

describe("the account-row watch (accounts-watch.ts)", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-accounts-watch-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("counts only users and realms rows, and waits for the tables to exist", () => {
    const db = new Database(":memory:");
    const watch = new AccountsWatch(db);
    assert.equal(watch.current(), undefined, "no tables, no count");
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, n INTEGER); CREATE TABLE realms (id INTEGER PRIMARY KEY); CREATE TABLE messages (id INTEGER PRIMARY KEY)");
    const start = watch.current();
    assert.equal(typeof start, "number");
    db.exec("INSERT INTO messages DEFAULT VALUES");
    assert.equal(watch.current(), start);
    for (const statement of ["INSERT INTO users (n) VALUES (1)", "UPDATE users SET n = 2", "INSERT INTO realms DEFAULT VALUES", "DELETE FROM realms", "DELETE FROM users"]) {
      const before = watch.current();
      db.exec(statement);
      assert.ok(watch.current()! > before!, statement);
    }
    assert.ok(watch.intact());
    db.close();
  });

  it("is not intact after its table was rebuilt, and watches the new table from then on", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, n INTEGER); CREATE TABLE realms (id INTEGER PRIMARY KEY)");
    const watch = new AccountsWatch(db);
    const before = watch.current();
    // What a migration that changes a column does on SQLite: the triggers go with the old table.
    db.exec("ALTER TABLE users RENAME TO users_old; CREATE TABLE users (id INTEGER PRIMARY KEY, n INTEGER, m INTEGER); INSERT INTO users (id, n) SELECT id, n FROM users_old; DROP TABLE users_old");
    db.exec("INSERT INTO users (n) VALUES (5)");
    assert.equal(watch.intact(), false, "the schema changed under it");
    const reinstalled = watch.current();
    assert.notEqual(reinstalled, before, "stamps from before never match again");
    assert.ok(watch.intact());
    db.exec("UPDATE users SET m = 1");
    assert.ok(watch.current()! > reinstalled!);
    db.close();
  });

  it("is gone with its connection: a file reopened without it has no temp triggers", () => {
    const file = join(dir, "w.sqlite3");
    const db = new Database(file);
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY); CREATE TABLE realms (id INTEGER PRIMARY KEY)");
    new AccountsWatch(db);
    assert.equal(db.prepare("SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger'").pluck().get(), 6);
    db.close();
    const again = new Database(file);
    again.exec("INSERT INTO users DEFAULT VALUES");
    assert.equal(again.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'parley_watch%'").pluck().get(), 0);
    again.close();
  });
});

