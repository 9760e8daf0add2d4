/** Settings that need more than a default (src/config.ts): each mistake names the setting to fix. */
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";

describe("CAMO_URL and CAMO_KEY (issue 16, F17)", () => {
  it("are off by default, and read as a base URL ending in / with its key", () => {
    assert.equal(loadConfig({}).camo, null);
    assert.deepEqual(loadConfig({ CAMO_URL: "https://camo.example.com", CAMO_KEY: "k" }).camo, { url: "https://camo.example.com/", key: "k" });
    assert.deepEqual(loadConfig({ CAMO_URL: "http://127.0.0.1:8081/proxy/", CAMO_KEY: "k" }).camo, { url: "http://127.0.0.1:8081/proxy/", key: "k" });
  });

  it("refuse one without the other, or a URL that is not http(s), naming the setting", () => {
    assert.throws(() => loadConfig({ CAMO_URL: "https://camo.example.com/" }), /^Error: CAMO_URL and CAMO_KEY: set both/);
    assert.throws(() => loadConfig({ CAMO_KEY: "k" }), /^Error: CAMO_URL and CAMO_KEY: set both/);
    assert.throws(() => loadConfig({ CAMO_URL: "camo.example.com", CAMO_KEY: "k" }), /^Error: CAMO_URL: "camo\.example\.com" is not a URL/);
    assert.throws(() => loadConfig({ CAMO_URL: "ftp://camo.example.com/", CAMO_KEY: "k" }), /^Error: CAMO_URL: .* must be an http\(s\) URL/);
  });
});

describe("WORKERS (issue 21, item 1)", () => {
  it("defaults to the cores Node may use on PostgreSQL and one process on SQLite; 1 and auto are accepted; the worker index is the primary's", () => {
    const postgres = { DATABASE_URL: "postgres://parley@127.0.0.1/parley" };
    assert.equal(loadConfig(postgres).workers, Math.min(availableParallelism(), 64));
    assert.equal(loadConfig({ ...postgres, WORKERS: "auto" }).workers, loadConfig(postgres).workers);
    assert.equal(loadConfig({}).workers, 1);
    assert.equal(loadConfig({ WORKERS: "auto" }).workers, 1);
    assert.equal(loadConfig({ WORKERS: "2" }).workers, 2);
    assert.equal(loadConfig({ WORKERS: "1" }).workers, 1);
    assert.equal(loadConfig({}).workerIndex, null);
    assert.equal(loadConfig({ PARLEY_WORKER_INDEX: "1" }).workerIndex, 1);
  });

  it("refuses anything but a whole number from 1 to 64, naming the setting", () => {
    for (const bad of ["0", "-1", "1.5", "two", "65"]) assert.throws(() => loadConfig({ WORKERS: bad }), /^Error: WORKERS: must be a whole number from 1 to 64/);
  });
});
