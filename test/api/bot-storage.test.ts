/**
 * Bot storage (Zulip's get/update/remove-bot-storage; bots only since FL 494), on every store,
 * including the round trips zulip_bots' StateHandler makes for the incrementor and virtual_fs bots.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

/**
 * How zulip_bots' StateHandler (zulip_bots/lib.py) and the Python bindings (get_storage,
 * update_storage) call the server: every value is the bot's own JSON text of the Python value
 * (json.dumps), sent inside the JSON-encoded `storage` dict; reads ask for one key at a time.
 */
const STATE_HANDLER = {
  put: (key: string, value: unknown) => ({ method: "PUT", path: "/bot_storage", params: { storage: { [key]: JSON.stringify(value) } } }),
  get: (key: string) => ({ method: "GET", path: "/bot_storage", params: { keys: [key] } }),
} as const;

for (const kind of STORE_KINDS) {
  describe(`bot storage [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind, { botStorageSizeLimit: 1000 });
    });
    afterEach(() => t.close());

    const bot = () => t.as("bot");
    const put = (storage: Record<string, unknown>) => bot().put("/bot_storage", { storage });

    it("stores, reads and deletes entries", async () => {
      assert.equal((await put({ a: "1", b: "two", c: "" })).status, 200);
      assert.deepEqual((await bot().get("/bot_storage")).body, { result: "success", msg: "", storage: { a: "1", b: "two", c: "" } });
      assert.deepEqual((await bot().get("/bot_storage", { keys: ["c", "a"] })).body.storage, { c: "", a: "1" });
      assert.equal((await put({ a: "one" })).status, 200);
      assert.deepEqual((await bot().get("/bot_storage", { keys: ["a"] })).body.storage, { a: "one" });
      assert.equal((await bot().delete("/bot_storage", { keys: ["a", "b"] })).status, 200);
      assert.deepEqual((await bot().get("/bot_storage")).body.storage, { c: "" });
    });

    it("stores many entries in one request, and replaces some of them in another", async () => {
      const many = Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`k${i}`, ""]));
      await t.close();
      t = await createTestRealm(kind, { botStorageSizeLimit: 100_000 });
      assert.equal((await put(many)).status, 200);
      assert.equal((await put({ k0: "zero", k1199: "last", extra: "new" })).status, 200);
      const stored = (await bot().get("/bot_storage")).body.storage as Record<string, string>;
      assert.equal(Object.keys(stored).length, 1201);
      assert.deepEqual([stored.k0, stored.k1, stored.k1199, stored.extra], ["zero", "", "last", "new"]);
    });

    it("reads and deletes everything when no keys, or an empty list, are given", async () => {
      await put({ a: "1", b: "2" });
      assert.deepEqual((await bot().get("/bot_storage", { keys: [] })).body.storage, { a: "1", b: "2" });
      assert.equal((await bot().delete("/bot_storage", { keys: [] })).status, 200);
      assert.deepEqual((await bot().get("/bot_storage")).body.storage, {});
      await put({ x: "y" });
      assert.equal((await bot().delete("/bot_storage")).status, 200);
      assert.deepEqual((await bot().get("/bot_storage")).body.storage, {});
      assert.equal((await bot().delete("/bot_storage")).status, 200);
    });

    it("refuses keys that are not stored, changing nothing", async () => {
      await put({ a: "1" });
      assertError(await bot().get("/bot_storage", { keys: ["a", "nope"] }), "Key does not exist.");
      assertError(await bot().delete("/bot_storage", { keys: ["a", "nope"] }), "Key does not exist.");
      // Zulip counts the rows it found against the keys named, so a repeated key fails too.
      assertError(await bot().delete("/bot_storage", { keys: ["a", "a"] }), "Key does not exist.");
      assert.deepEqual((await bot().get("/bot_storage")).body.storage, { a: "1" });
    });

    it("keeps each bot's storage to the server's limit, counting keys and values in characters", async () => {
      // 1000 characters in all: "k1" + 498 + "k2" + 498 (an astral character counts once).
      assert.equal((await put({ k1: "x".repeat(498), k2: "🙂".repeat(498) })).status, 200);
      assertError(await put({ k3: "" }), "Request exceeds storage limit by 2 characters. The limit is 1000 characters.");
      // Replacing a value counts only the difference.
      assert.equal((await put({ k1: "y".repeat(498) })).status, 200);
      assertError(await put({ k1: "y".repeat(499), k2: "" , k4: "z".repeat(497) }), "Request exceeds storage limit by 2 characters. The limit is 1000 characters.");
      assert.deepEqual((await bot().get("/bot_storage", { keys: ["k1"] })).body.storage, { k1: "y".repeat(498) });
      // Each bot has its own allowance.
      const created = await t.as("hamlet").post("/bots", { full_name: "Other Bot", short_name: "other" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const email = (await t.as("iago").get(`/users/${created.body.user_id}`)).body.user.email as string;
      const other = { id: created.body.user_id as number, email, apiKey: created.body.api_key as string, fullName: "Other Bot", role: 400 };
      assert.equal((await t.as(other).put("/bot_storage", { storage: { k: "v".repeat(999) } })).status, 200);
      assert.deepEqual((await t.as(other).get("/bot_storage")).body.storage, { k: "v".repeat(999) });
    });

    it("checks the parameters' types as Zulip does", async () => {
      assertError(await bot().put("/bot_storage", { storage: { a: 1 } }), 'storage["a"] is not a string', "REQUEST_VARIABLE_INVALID");
      assertError(await bot().put("/bot_storage", { storage: ["a"] }), "storage is not a dict", "REQUEST_VARIABLE_INVALID");
      assertError(await bot().put("/bot_storage", {}), "Missing 'storage' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await bot().get("/bot_storage", { keys: "a" }), 'Argument "keys" is not valid JSON.', "INVALID_JSON");
      assertError(await bot().get("/bot_storage", { keys: [1] }), "keys[0] is not a string", "REQUEST_VARIABLE_INVALID");
      // Keys that look like object internals are ordinary keys.
      assert.equal((await bot().put("/bot_storage", { storage: JSON.parse('{"__proto__": "p", "constructor": "c"}') as object })).status, 200);
      assert.deepEqual((await bot().get("/bot_storage", { keys: ["__proto__"] })).body.storage, JSON.parse('{"__proto__": "p"}'));
    });

    it("is for bots only (FL 494): everyone else gets PERMISSION_DENIED", async () => {
      for (const who of ["hamlet", "iago", "desdemona", "polonius"] as const) {
        assertError(await t.as(who).get("/bot_storage"), "Must be a bot user", "PERMISSION_DENIED");
        assertError(await t.as(who).put("/bot_storage", { storage: { a: "b" } }), "Must be a bot user", "PERMISSION_DENIED");
        assertError(await t.as(who).delete("/bot_storage"), "Must be a bot user", "PERMISSION_DENIED");
      }
      await checkPermissions(["bot"], (who) => t.as(who).put("/bot_storage", { storage: { a: "b" } }));
    });

    it("round-trips the incrementor and virtual_fs bots' state as zulip_bots' StateHandler sends it", async () => {
      const call = async (req: { method: string; path: string; params: Record<string, unknown> }) => {
        const res = req.method === "PUT" ? await bot().put(req.path, req.params) : await bot().get(req.path, req.params);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body;
      };
      // incrementor: initialize() puts number=0 and message_id=None, then each mention reads and bumps number.
      await call(STATE_HANDLER.put("number", 0));
      await call(STATE_HANDLER.put("message_id", null));
      for (let i = 1; i <= 3; i++) {
        const stored = await call(STATE_HANDLER.get("number"));
        // The handler reads response["storage"][key] and json.loads it.
        const number = JSON.parse(stored.storage.number as string) as number;
        await call(STATE_HANDLER.put("number", number + 1));
      }
      assert.equal(JSON.parse((await call(STATE_HANDLER.get("number"))).storage.number as string), 3);
      assert.equal(JSON.parse((await call(STATE_HANDLER.get("message_id"))).storage.message_id as string), null);
      // virtual_fs: one dict per recipient, keyed by the recipient's address.
      const fs = { "/": { kind: "dir", fns: ["/notes"] }, "/notes": { kind: "text", content: "hello" }, user_paths: { "hamlet@zulip.test": "/" } };
      await call(STATE_HANDLER.put("stream:general", fs));
      assert.deepEqual(JSON.parse((await call(STATE_HANDLER.get("stream:general"))).storage["stream:general"] as string), fs);
    });
  });
}
