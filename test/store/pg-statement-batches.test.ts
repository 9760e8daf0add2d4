/**
 * PostgreSQL statements issued together go in one round trip (src/store/pg-statement-batches.ts).
 * The rewriting of parameters into literals must give each statement exactly the answer it gets
 * with parameters apart, a failing statement must fail alone, and transactions and writes must
 * not be batched.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { sql } from "kysely";
import { BatchingPool, inlineParameters, SENT_ALONE } from "../../src/store/pg-statement-batches.js";
import { readTx, transaction } from "../../src/store/db.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

describe("writing parameters into statement texts", () => {
  // Each case: text, values, the text sent (null: the statement goes alone, parameters apart).
  const cases: Array<[string, unknown[], string | null]> = [
    ['select "id" from "users" where "id" = $1', [7], `select "id" from "users" where "id" = '7'`],
    ["select $2, $1, $2", ["a", "b"], "select 'b', 'a', 'b'"],
    ["select $1", ["it's"], "select 'it''s'"],
    ["select $1", ["back\\slash"], "select  E'back\\\\slash'"],
    ["select $1", [null], "select NULL"],
    ["select $1", [undefined], "select NULL"],
    ["select $1", [true], "select 'true'"],
    ["select $1", [[1, 2, 3]], `select '{"1","2","3"}'`],
    ["select $1", [["x", 'y"z']], `select '{"x","y\\"z"}'`.replace("'{", " E'{").replace('\\"', '\\\\"')],
    ["select $1", [{ a: 1 }], `select '{"a":1}'`],
    // A '$1' inside a quoted literal or identifier is text, not a placeholder.
    [`select '$1' as "$2", $1`, [5], `select '$1' as "$2", '5'`],
    [`select 'it''s $1', $1`, [5], `select 'it''s $1', '5'`],
    // What the rewriting does not handle goes alone.
    ["select $1", [Buffer.from("x")], null],
    ["select $1", ["a\u0000b"], null],
    ["select $1", [["a\u0000b"]], null],
    ["select $2", [1], null],
    ["select $1 -- comment", [1], null],
    ["select $1 /* comment */", [1], null],
    ["select $1; select 2", [1], null],
    ["select $$body$$", [], null],
    ["select E'\\n' || $1", [1], null],
    ["select 'unterminated", [], null],
  ];
  for (const [text, values, expected] of cases) {
    it(`${JSON.stringify(text)} with ${JSON.stringify(values)}`, () => {
      assert.equal(inlineParameters(pg, text, values), expected);
    });
  }
});

describe("a batch that fails (a pool standing in for PostgreSQL)", () => {
  /** Answers each statement `select <n>` with n, and fails what `fail` says (null: answers). */
  function fakePool(fail: (text: string) => Error | null) {
    const calls: string[] = [];
    const pool = {
      calls,
      query(text: string) {
        calls.push(text);
        const err = fail(text);
        if (err) return Promise.reject(err);
        const results = text.split(";\n").map((s) => ({ command: "SELECT", rowCount: 1, rows: [{ n: Number(/select '?(\d+)/.exec(s)?.[1]) }] }));
        return Promise.resolve(results.length === 1 ? results[0] : results);
      },
    };
    return pool;
  }
  const unreachable = (err: unknown) => (err as { code?: string }).code === "ECONNREFUSED";
  const send = (batches: BatchingPool) => Promise.allSettled([1, 2, 3].map((n) => batches.query(`select ${n}`, [])));

  it("sends each statement again alone when the batch fails with an error of one statement", async () => {
    const pool = fakePool((text) => (text.includes("select 2") ? Object.assign(new Error("division by zero"), { code: "22012" }) : null));
    const batches = new BatchingPool(pool as never, pg, unreachable);
    const results = await send(batches);
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "rejected", "fulfilled"],
    );
    assert.deepEqual(pool.calls, ["select 1;\nselect 2;\nselect 3", "select 1", "select 2", "select 3"]);
    assert.deepEqual(batches.stats, { statements: 6, roundTrips: 4, retried: 1 });
  });

  it("hands a released client out again, never to two holders at once", async () => {
    const batches = new BatchingPool(fakePool(() => null) as never, pg, unreachable);
    const first = await batches.connect();
    first.release();
    first.release(); // a second release must not put it in the idle list twice
    const again = await batches.connect();
    const other = await batches.connect();
    assert.equal(again, first);
    assert.notEqual(other, first);
  });

  it("fails every statement at once with the same error when PostgreSQL cannot be reached", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const pool = fakePool(() => refused);
    const batches = new BatchingPool(pool as never, pg, unreachable);
    const results = await send(batches);
    assert.ok(results.every((r) => r.status === "rejected" && r.reason === refused));
    assert.equal(pool.calls.length, 1, "not sent again one by one");
  });
});

const postgres = STORE_KINDS.includes("postgres");

describe("statements batched on PostgreSQL", { skip: postgres ? false : "TEST_DATABASE_URL is not set" }, () => {
  let t: TestStore;
  before(async () => {
    t = await openTestStore("postgres");
    await sql`CREATE TABLE batch_test (id integer PRIMARY KEY, label text, at timestamptz, tags text[], data jsonb)`.execute(t.store.db);
  });
  after(() => t?.cleanup());

  const stats = () => t.store.batchStats!();
  const delta = async <T>(fn: () => Promise<T>) => {
    const before = stats();
    const value = await fn();
    const now = stats();
    return { value, statements: now.statements - before.statements, roundTrips: now.roundTrips - before.roundTrips, retried: now.retried - before.retried };
  };

  it("sends the reads issued in one turn in one round trip, each with its own answer", async () => {
    const db = readTx(t.store).db;
    const { value, statements, roundTrips } = await delta(() => Promise.all(Array.from({ length: 20 }, (_, i) => sql<{ n: number }>`SELECT ${i}::int * 2 AS n`.execute(db))));
    assert.deepEqual(
      value.map((r) => r.rows[0].n),
      Array.from({ length: 20 }, (_, i) => i * 2),
    );
    assert.equal(statements, 20);
    assert.equal(roundTrips, 1);
  });

  it("answers values written in as literals exactly as with parameters apart", async () => {
    const when = new Date("2026-12-07T10:11:12.345Z");
    const tricky = "it's a \\ back'slash $1 \"quoted\" ; -- not a comment";
    const reads = () =>
      Promise.all([
        sql<{ v: string }>`SELECT ${tricky}::text AS v`.execute(t.store.db),
        sql<{ v: Date }>`SELECT ${when}::timestamptz AS v`.execute(t.store.db),
        sql<{ v: number[] }>`SELECT ${[3, 1, 2]}::int[] AS v`.execute(t.store.db),
        sql<{ v: string[] }>`SELECT ${["a'b", 'c"d', "e\\f", "g,h", "{i}"]}::text[] AS v`.execute(t.store.db),
        sql<{ v: boolean }>`SELECT ${true}::boolean AS v`.execute(t.store.db),
        sql<{ v: null }>`SELECT ${null}::int AS v`.execute(t.store.db),
        sql<{ v: number }>`SELECT count(*) AS v FROM generate_series(1, 10) g WHERE g = ANY(${[2, 4, 6]})`.execute(t.store.db),
        sql<{ v: string }>`SELECT ${JSON.stringify({ a: "b'c" })}::jsonb ->> 'a' AS v`.execute(t.store.db),
      ]);
    const batched = await delta(reads);
    assert.equal(batched.roundTrips, 1);
    const values = batched.value.map((r) => r.rows[0].v);
    assert.deepEqual(values, [tricky, when, [3, 1, 2], ["a'b", 'c"d', "e\\f", "g,h", "{i}"], true, null, 3, "b'c"]);
    // The same statements one at a time, parameters apart.
    const alone = [];
    for (const read of [tricky, when]) alone.push((await sql<{ v: unknown }>`SELECT ${read}::${sql.raw(read instanceof Date ? "timestamptz" : "text")} AS v`.execute(t.store.db)).rows[0].v);
    assert.deepEqual(alone, values.slice(0, 2));
  });

  it("fails only the statement that fails; its neighbours get their answers", async () => {
    const db = t.store.db;
    const { value, retried } = await delta(() =>
      Promise.allSettled([sql`SELECT 1 AS n`.execute(db), sql`SELECT 1 / ${0}::int AS n`.execute(db), sql`SELECT 3 AS n`.execute(db)]),
    );
    assert.equal(retried, 1);
    assert.equal(value[0].status, "fulfilled");
    assert.equal(value[1].status, "rejected");
    assert.match(String((value[1] as PromiseRejectedResult).reason), /division by zero/);
    assert.equal(value[2].status === "fulfilled" && value[2].value.rows[0] && (value[2].value.rows[0] as { n: number }).n, 3);
  });

  it("sends a read marked SENT_ALONE by itself: the cheap reads of its turn do not wait for it", async () => {
    let slowDone = false;
    const { value, statements, roundTrips } = await delta(async () => {
      const slow = sql`SELECT pg_sleep(1.5)${SENT_ALONE}`.execute(t.store.db).then(() => (slowDone = true));
      const fast = await Promise.all([sql<{ n: number }>`SELECT 1 AS n`.execute(t.store.db), sql<{ n: number }>`SELECT 2 AS n`.execute(t.store.db)]);
      const doneFirst = !slowDone;
      await slow;
      return { fast, doneFirst };
    });
    assert.ok(value.doneFirst, "the cheap reads were answered before the slow one ended");
    assert.deepEqual(
      value.fast.map((r) => r.rows[0].n),
      [1, 2],
    );
    assert.equal(statements, 3);
    assert.equal(roundTrips, 2, "the slow read alone, the two cheap ones together");
  });

  it("sends a value holding a NUL alone: PostgreSQL refuses it, its neighbour is answered", async () => {
    const db = t.store.db;
    const [nul, fine] = await Promise.allSettled([sql`SELECT ${"a\u0000b"}::text AS v`.execute(db), sql<{ n: number }>`SELECT 7 AS n`.execute(db)]);
    assert.equal(nul.status, "rejected");
    assert.match(String((nul as PromiseRejectedResult).reason), /0x00/);
    assert.equal(fine.status === "fulfilled" && fine.value.rows[0].n, 7);
  });

  it("sends writes alone, once each", async () => {
    const { statements, roundTrips } = await delta(() =>
      Promise.all([
        sql`INSERT INTO batch_test (id, label) VALUES (1, 'one')`.execute(t.store.db),
        sql`INSERT INTO batch_test (id, label) VALUES (2, 'two')`.execute(t.store.db),
        sql`SELECT count(*) FROM batch_test`.execute(t.store.db),
      ]),
    );
    assert.equal(statements, 3);
    assert.equal(roundTrips, 3);
    const dup = await Promise.allSettled([sql`INSERT INTO batch_test (id, label) VALUES (1, 'again')`.execute(t.store.db), sql`SELECT 1`.execute(t.store.db)]);
    assert.equal(dup[0].status, "rejected");
    assert.equal(dup[1].status, "fulfilled");
  });

  it("keeps a transaction on its own connection: its writes are unseen by batched reads until it commits", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const begun = new Promise<void>((r) => (inside = r));
    const tx = transaction(t.store, async (trx) => {
      await sql`INSERT INTO batch_test (id, label) VALUES (10, 'ten')`.execute(trx.db);
      const own = await sql<{ n: number }>`SELECT count(*)::int AS n FROM batch_test WHERE id = 10`.execute(trx.db);
      assert.equal(own.rows[0].n, 1, "the transaction sees its own write");
      inside();
      await held;
    });
    await begun;
    const outside = await Promise.all([1, 2].map(() => sql<{ n: number }>`SELECT count(*)::int AS n FROM batch_test WHERE id = 10`.execute(t.store.db)));
    assert.deepEqual(
      outside.map((r) => r.rows[0].n),
      [0, 0],
    );
    release();
    await tx;
    const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM batch_test WHERE id = 10`.execute(t.store.db);
    assert.equal(after.rows[0].n, 1);
  });

  it("rolls a failed transaction back on its own connection, and the pool goes on", async () => {
    await assert.rejects(
      transaction(t.store, async (trx) => {
        await sql`INSERT INTO batch_test (id, label) VALUES (20, 'twenty')`.execute(trx.db);
        throw new Error("changed my mind");
      }),
      /changed my mind/,
    );
    const rows = await Promise.all([sql<{ n: number }>`SELECT count(*)::int AS n FROM batch_test WHERE id = 20`.execute(t.store.db), sql`SELECT 1`.execute(t.store.db)]);
    assert.equal(rows[0].rows[0].n, 0);
  });
});
