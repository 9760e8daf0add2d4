/**
 * The store integrity check (store/integrity.ts) that the crash test and `manage restore` rely on:
 * silent on a sound store with data in it, and naming the table when a row's reference dangles.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { after, before, describe, it } from "node:test";
import { openStore, transaction } from "../../src/store/db.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { checkIntegrity } from "../../src/store/integrity.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const MISSING_MESSAGE_ID = 987_654_321;

for (const kind of STORE_KINDS) {
  describe(`store integrity check [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("finds nothing wrong with a realm that has users, a channel and messages", async () => {
      const created = await t.as("iago").post("/channels/create", { name: "sound", subscribers: [t.users.hamlet.id] });
      assert.equal(created.status, 200);
      const sent = await t.as("hamlet").post("/messages", { type: "stream", to: "sound", topic: "t", content: "hello" });
      assert.equal(sent.status, 200);
      assert.deepEqual(await checkIntegrity(t.deps.store), []);
    });

    it("reports a user_messages row whose message does not exist", async () => {
      // Written past the foreign-key enforcement, as a torn write or a bad restore would leave it.
      const orphan = { user_id: t.users.hamlet.id, message_id: MISSING_MESSAGE_ID, flags: 0 };
      if (kind === "postgres") {
        await transaction(t.deps.store, async (tx) => {
          await sql`SET LOCAL session_replication_role = replica`.execute(tx.db);
          await tx.db.insertInto("user_messages").values(orphan).execute();
        });
      } else {
        // SQLite has one connection; the pragma is a no-op inside a transaction, so none is open.
        await sql`PRAGMA foreign_keys = OFF`.execute(t.deps.store.db);
        await t.deps.store.db.insertInto("user_messages").values(orphan).execute();
        await sql`PRAGMA foreign_keys = ON`.execute(t.deps.store.db);
      }
      const problems = await checkIntegrity(t.deps.store);
      assert.equal(problems.length, 1, problems.join("\n"));
      assert.match(problems[0], /user_messages.* missing messages row/);
    });
  });
}

describe("store integrity check on a SQLite file written by another connection", () => {
  it("reports no phantom full-text corruption on a connection that read the index before the writes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-integrity-"));
    const url = `sqlite:${join(dir, "parley.sqlite3")}`;
    const reader = openStore(url);
    const writer = openStore(url);
    try {
      await migrateToLatest(writer);
      // Many small write transactions, as a server makes: FTS5 flushes a segment for each.
      for (let id = 1; id <= 200; id++) {
        await sql`INSERT INTO messages_fts(rowid, subject, content) VALUES (${id}, ${`topic ${id % 5}`}, ${`words ${id} and ${(id * 7919) % 1000}`})`.execute(writer.db);
        if (id % 20 === 0) assert.deepEqual(await checkIntegrity(reader), [], `after ${id} writes`);
      }
    } finally {
      await reader.close();
      await writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
