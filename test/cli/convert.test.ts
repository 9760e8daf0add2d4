/**
 * `manage convert` (issue 18, item 5): a deployment's database copied into an empty store of the
 * other kind serves the same data through the API — every table's row count equal, accounts
 * logging in with the same keys, messages where they were — and ids continue past the source's
 * (a deleted message's id is not handed out again). A target that holds an organization is
 * refused. SQLite → SQLite always; SQLite ⇄ PostgreSQL when TEST_DATABASE_URL is set. In process
 * (the function `manage convert` runs); the CLI's flags are checked once through a child process.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { buildApp } from "../../src/app.js";
import { convertInto } from "../../src/cli/commands/store-convert.js";
import type { Store } from "../../src/store/db.js";
import { createTestRealm, testDeps, type TestRealm } from "../helpers/fixtures.js";
import { runManage } from "../helpers/server-process.js";
import { openEmptyStore, STORE_KINDS, type StoreKind, type TestStore } from "../helpers/stores.js";

async function rowCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await store.db.introspection.getTables()) {
    // The migrator's bookkeeping, and SQLite's search index (rebuilt by the copy, not copied).
    if (table.name.startsWith("kysely_") || table.name.startsWith("messages_fts")) continue;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table.name)}`.execute(store.db);
    counts[table.name] = Number(rows[0].n);
  }
  return counts;
}

const pairs: Array<[StoreKind, StoreKind]> = [["sqlite", "sqlite"]];
if (STORE_KINDS.includes("postgres")) pairs.push(["sqlite", "postgres"], ["postgres", "sqlite"]);

for (const [from, to] of pairs) {
  describe(`manage convert ${from} → ${to}`, () => {
    let dir: string;
    let t: TestRealm;
    let target: TestStore;
    let deletedId: number;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "parley-convert-"));
      t = await createTestRealm(from);
      const subscribed = await t.as("hamlet").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "Verona" }]) });
      assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
      const sent = await t.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "moving", content: "kept across the move" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      await t.as("hamlet").post(`/messages/${sent.body.id}/reactions`, { emoji_name: "octopus" });
      const doomed = await t.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "doomed", content: "deleted before the move" });
      deletedId = doomed.body.id;
      const deleted = await t.as("desdemona").delete(`/messages/${deletedId}`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      target = await openEmptyStore(to, dir);
    });
    after(async () => {
      await target.cleanup();
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("copies every row; the copy serves the same accounts and messages, and ids continue", async () => {
      const copied = await convertInto(t.testStore.store, target.store, { requireEmpty: true });
      const [source, copy] = await Promise.all([rowCounts(t.testStore.store), rowCounts(target.store)]);
      assert.deepEqual(copy, source);
      assert.equal(copied.rows, Object.values(source).reduce((a, b) => a + b, 0));

      const app = await buildApp(testDeps(target.store, {}, t.clock), { logger: false });
      try {
        const headers = { host: t.host, authorization: "Basic " + Buffer.from(`hamlet@zulip.test:${t.users.hamlet.apiKey}`).toString("base64") };
        const me = await app.inject({ method: "GET", url: "/api/v1/users/me", headers });
        assert.equal(me.json().user_id, t.users.hamlet.id);
        const narrow = encodeURIComponent(JSON.stringify([{ operator: "topic", operand: "moving" }]));
        const messages = (await app.inject({ method: "GET", url: `/api/v1/messages?anchor=newest&num_before=5&num_after=0&narrow=${narrow}`, headers })).json().messages;
        assert.deepEqual(
          messages.map((m: { content: string; reactions: Array<{ emoji_name: string }> }) => [m.content, m.reactions.map((r) => r.emoji_name)]),
          [["<p>kept across the move</p>", ["octopus"]]],
        );
        const next = await app.inject({
          method: "POST",
          url: "/api/v1/messages",
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams({ type: "stream", to: "Verona", topic: "moving", content: "after the move" }).toString(),
        });
        assert.equal(next.statusCode, 200, next.body);
        assert.ok(next.json().id > deletedId, `new id ${next.json().id} must pass the deleted ${deletedId}`);
      } finally {
        await app.close();
      }
    });

    it("refuses a target that holds an organization, leaving it as it was", async () => {
      const before = await rowCounts(target.store);
      await assert.rejects(convertInto(t.testStore.store, target.store, { requireEmpty: true }), /already holds an organization; convert into an empty database/);
      assert.deepEqual(await rowCounts(target.store), before);
    });
  });
}

describe("manage convert flags", () => {
  it("needs --to, and refuses the same database twice, with one line and a non-zero exit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-convert-cli-"));
    try {
      const url = `sqlite:${join(dir, "parley.sqlite3")}`;
      const env = { DATABASE_URL: url, PARLEY_VAR_DIR: join(dir, "var") };
      const [missing, same] = await Promise.all([runManage(env, ["convert"]), runManage(env, ["convert", "--to", url])]);
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /^missing --to\n/);
      assert.deepEqual([same.code, same.stdout, same.stderr], [1, "", "error: --from and --to name the same database\n"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
