/** The API fuzz suite (./fuzz-suite.ts) on PostgreSQL, when TEST_DATABASE_URL names a server. */
import { it } from "node:test";
import { STORE_KINDS } from "../helpers/stores.js";
import { fuzzSuite } from "./fuzz-suite.js";

if (STORE_KINDS.includes("postgres")) fuzzSuite("postgres");
else it("fuzzes the API on PostgreSQL", (t) => t.skip("TEST_DATABASE_URL is not set"));
