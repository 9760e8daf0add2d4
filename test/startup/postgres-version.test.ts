/**
 * PostgreSQL 13 or later (src/startup/checks.ts): every authenticated request reads its statement's
 * snapshot with pg_current_snapshot(), which PostgreSQL 13 introduced. An older server is refused
 * at start with a one-line error naming DATABASE_URL; the running one (when TEST_DATABASE_URL is
 * set) is accepted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { openAnsweringStore, postgresVersionProblem } from "../../src/startup/checks.js";
import { openTestStore, STORE_KINDS } from "../helpers/stores.js";

describe("the PostgreSQL version a start accepts", () => {
  const cases: Array<[number, string, boolean]> = [
    [120018, "12.18", false],
    [130000, "13.0", true],
    [150019, "15.19 (Debian 15.19-0+deb12u1)", true],
    [170002, "17.2", true],
    [NaN, "unknown", false],
  ];
  for (const [num, text, accepted] of cases) {
    it(`${text}: ${accepted ? "accepted" : "refused"}`, () => {
      const problem = postgresVersionProblem(num, text);
      if (accepted) assert.equal(problem, null);
      else assert.equal(problem, `PostgreSQL ${text} is too old: Parley needs PostgreSQL 13 or later`);
    });
  }

  for (const kind of STORE_KINDS.filter((k) => k === "postgres")) {
    it(`accepts the test server [${kind}]`, async () => {
      const t = await openTestStore(kind);
      try {
        const store = await openAnsweringStore(loadConfig({ DATABASE_URL: t.url }));
        await store.close();
      } finally {
        await t.cleanup();
      }
    });
  }
});
