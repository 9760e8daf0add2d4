/**
 * Every table of the schema is either part of a realm export (store/realm-export-tables.ts) or
 * named as left out on purpose, so a new table cannot silently go missing from exports; and the
 * export order puts every referenced table before the tables that point at it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { EXPORT_TABLES, NOT_EXPORTED } from "../../src/store/realm-export-tables.js";
import { openTestStore } from "../helpers/stores.js";

describe("realm export tables", () => {
  it("cover the schema: each table exported or deliberately not", async () => {
    const { store, cleanup } = await openTestStore("sqlite");
    try {
      const rows = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'
        AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' AND name NOT LIKE 'messages_fts%'`.execute(store.db);
      const exported = EXPORT_TABLES.map((t) => t.name as string);
      const unclassified = rows.rows.map((r) => r.name).filter((name) => !exported.includes(name) && !NOT_EXPORTED.has(name));
      assert.deepEqual(unclassified, [], "add these tables to EXPORT_TABLES or NOT_EXPORTED");
      assert.deepEqual(exported.filter((name) => NOT_EXPORTED.has(name)), []);
    } finally {
      await cleanup();
    }
  });

  it("list each table after the tables it references (later references excepted)", () => {
    const seen = new Set<string>();
    for (const table of EXPORT_TABLES) {
      for (const target of Object.values({ ...table.refs, ...table.optionalRefs })) {
        assert.ok(seen.has(target) || target === table.name, `${table.name} references ${target}, listed later`);
      }
      seen.add(table.name);
    }
  });
});
