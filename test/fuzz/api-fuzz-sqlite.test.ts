/** The API fuzz suite (./fuzz-suite.ts) on SQLite. */
import { fuzzSuite } from "./fuzz-suite.js";

fuzzSuite("sqlite");
