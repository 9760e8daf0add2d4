/**
 * The server's SQLite store checkpoints its WAL on a worker thread (src/store/checkpointer.ts):
 * commits no longer copy pages into the database file themselves, yet the file catches up within
 * a checkpoint interval; the worker starts with the first commit and leaves once idle; closing the
 * store stops it and keeps every write.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sql } from "kysely";
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from "../../src/store/checkpointer.js";
import { openStore, transaction } from "../../src/store/db.js";

const dir = mkdtempSync(join(tmpdir(), "parley-checkpointer-"));

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    if (condition()) return true;
  }
  return condition();
}

describe("background WAL checkpoints [sqlite]", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("leaves commits to the WAL and copies them into the database file from another thread", async () => {
    const file = join(dir, "bg.sqlite3");
    const store = openStore(`sqlite:${file}`, { backgroundCheckpoints: true });
    const raw = store.sqlite!.raw;
    assert.equal(raw.pragma("wal_autocheckpoint", { simple: true }), FALLBACK_AUTOCHECKPOINT_PAGES);
    // Statement journals (a send's 100-row INSERT) stay in memory instead of a temporary file (sqlite.ts).
    assert.equal(raw.pragma("temp_store", { simple: true }), 2, "temp_store = MEMORY");
    raw.exec("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    assert.equal(store.checkpointer?.running, false, "no worker before the first commit");
    await transaction(store, (tx) => sql`SELECT count(*) FROM blobs`.execute(tx.db));
    await transaction(store, (tx) => sql`UPDATE blobs SET body = 'none' WHERE id < 0`.execute(tx.db));
    assert.equal(store.checkpointer?.running, false, "transactions that wrote no row leave nothing to copy");
    const before = statSync(file).size;
    // About 2 MB in 20 commits: under the fallback threshold, so only the worker can move it.
    for (let i = 0; i < 20; i++) await transaction(store, (tx) => sql`INSERT INTO blobs (body) VALUES (${"x".repeat(100_000)})`.execute(tx.db));
    assert.equal(store.checkpointer?.running, true, "a commit wakes the worker");
    assert.ok(await until(() => statSync(file).size > before + 1_500_000, 5_000), "the database file grew without a checkpoint in any commit");
    await store.close();

    const again = openStore(`sqlite:${file}`);
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM blobs`.execute(again.db);
    assert.equal(rows[0].n, 20);
    await again.close();
  });

  it("lets the worker go once it has found nothing to copy for a while, and starts another on demand", async () => {
    const file = join(dir, "idle.sqlite3");
    const store = openStore(`sqlite:${file}`);
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`.execute(store.db);
    const checkpointer = new Checkpointer(file, 10, 3);
    checkpointer.wake();
    assert.equal(checkpointer.running, true);
    assert.ok(await until(() => !checkpointer.running, 5_000), "the idle worker exited");
    checkpointer.wake();
    assert.equal(checkpointer.running, true);
    await checkpointer.close();
    assert.equal(checkpointer.running, false);
    checkpointer.wake();
    assert.equal(checkpointer.running, false, "a closed checkpointer stays closed");
    await store.close();
  });

  it("is off unless asked for, and never for an in-memory database", async () => {
    const file = openStore(`sqlite:${join(dir, "plain.sqlite3")}`);
    assert.equal(file.sqlite!.raw.pragma("wal_autocheckpoint", { simple: true }), 1000);
    await file.close();
    const memory = openStore("sqlite::memory:", { backgroundCheckpoints: true });
    assert.equal(memory.sqlite!.raw.pragma("wal_autocheckpoint", { simple: true }), 1000);
    await memory.close();
  });
});
