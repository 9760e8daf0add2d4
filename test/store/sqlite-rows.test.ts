/**
 * SQLite rows built by src/store/sqlite.ts (arrays turned into objects by a generated builder)
 * must equal what better-sqlite3 builds itself, with BOOLEAN_COLUMNS as booleans: NULL stays
 * null, a repeated column name takes the later value, odd names are safe, iterate() agrees.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openSqlite, type SqliteConnection } from "../../src/store/sqlite.js";

describe("SQLite row objects [sqlite]", () => {
  let conn: SqliteConnection;
  before(() => {
    conn = openSqlite(":memory:");
    conn.raw.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, is_active INTEGER, name TEXT);
      INSERT INTO t VALUES (1, 1, 'a'), (2, 0, 'b'), (3, NULL, NULL);`);
  });
  after(() => conn.close());

  it("turns boolean columns into booleans and leaves NULL and other columns alone", () => {
    const rows = conn.prepare("SELECT id, is_active, name FROM t ORDER BY id").all([]);
    assert.deepEqual(rows, [
      { id: 1, is_active: true, name: "a" },
      { id: 2, is_active: false, name: "b" },
      { id: 3, is_active: null, name: null },
    ]);
  });

  it("binds booleans as 1/0", () => {
    assert.deepEqual(conn.prepare("SELECT id FROM t WHERE is_active = ?").all([true]), [{ id: 1 }]);
  });

  it("gives a repeated column name the later value, as better-sqlite3 does", () => {
    const sql = "SELECT 1 AS x, 2 AS x";
    assert.deepEqual(conn.prepare(sql).all([]), [conn.raw.prepare(sql).get()]);
    assert.deepEqual(conn.prepare(sql).all([]), [{ x: 2 }]);
  });

  it("keeps names that are not identifiers as they are", () => {
    const [row] = conn.prepare(`SELECT 1 AS "a""b", 2 AS "x\\y", 3 AS "}); throw 1; ({"`).all([]) as Array<Record<string, unknown>>;
    assert.deepEqual(row, { 'a"b': 1, "x\\y": 2, "}); throw 1; ({": 3 });
  });

  it("leaves a __proto__ column to better-sqlite3, which cannot change the prototype with it", () => {
    const sql = `SELECT 1 AS id, 4 AS "__proto__"`;
    const [row] = conn.prepare(sql).all([]) as object[];
    assert.deepEqual(row, conn.raw.prepare(sql).get());
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
  });

  it("iterates the same rows as all()", () => {
    const stmt = conn.prepare("SELECT id, is_active FROM t ORDER BY id");
    assert.deepEqual([...stmt.iterate([])], stmt.all([]));
  });

  it("answers writes with changes, not rows", () => {
    const stmt = conn.prepare("UPDATE t SET name = ? WHERE id = ?");
    assert.equal(stmt.reader, false);
    assert.equal((stmt.run(["c", 3]) as { changes: number }).changes, 1);
  });
});
