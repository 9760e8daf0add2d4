/** Alert words (Zulip's alert-words endpoints) and the has_alert_word flag they feed, on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel, sendToChannel } from "../helpers/conversations.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`alert words [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const words = async () => (await t.as("hamlet").get("/users/me/alert_words")).body.alert_words;

    it("adds words once whatever their case (the last spelling of a request wins), trimmed, and tells the user's clients", async () => {
      assert.deepEqual(await words(), []);
      t.published.length = 0;
      const res = await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["Denmark", "  rosemary ", "", "denmark", "To be, or not"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.alert_words, ["denmark", "rosemary", "To be, or not"]);
      assert.deepEqual(eventsOf(t, "alert_words")[0], { event: { type: "alert_words", alert_words: ["denmark", "rosemary", "To be, or not"] }, userIds: [t.users.hamlet.id] });
      const again = await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["ROSEMARY", "Ophelia"] });
      assert.deepEqual(again.body.alert_words, ["denmark", "rosemary", "To be, or not", "Ophelia"]);
      assert.deepEqual(await words(), again.body.alert_words);
      assert.deepEqual((await t.as("othello").get("/users/me/alert_words")).body.alert_words, []);
    });

    it("removes words whatever their case", async () => {
      await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["Denmark", "rosemary", "Ophelia"] });
      const res = await t.as("hamlet").delete("/users/me/alert_words", { alert_words: ["denmark", "OPHELIA", "unknown"] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.alert_words, ["rosemary"]);
      assert.deepEqual(eventsOf(t, "alert_words").at(-1)?.event.alert_words, ["rosemary"]);
    });

    it("adds and removes tens of thousands of words in one request (found by fuzzing: more than a statement can bind)", async () => {
      const many = Array.from({ length: 20_000 }, (_, i) => `w${i}`);
      const added = await t.as("hamlet").post("/users/me/alert_words", { alert_words: many });
      assert.equal(added.status, 200, JSON.stringify(added.body).slice(0, 300));
      assert.equal(added.body.alert_words.length, 20_000);
      const removed = await t.as("hamlet").delete("/users/me/alert_words", { alert_words: many.slice(1) });
      assert.deepEqual(removed.body.alert_words, ["w0"]);
    });

    it("skips words the database already holds under its own lower case (found by fuzzing: a 500 on PostgreSQL)", async () => {
      await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["İ"] });
      const res = await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["i", "İ"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.alert_words.includes("İ"));
    });

    it("refuses words over 100 characters and malformed lists", async () => {
      assert.equal((await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["é".repeat(100)] })).status, 200);
      const long = await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["fine", "x".repeat(101)] });
      assertError(long, "alert_words[1] is too long (limit: 100 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post("/users/me/alert_words", { alert_words: "word" }), 'Argument "alert_words" is not valid JSON.', "INVALID_JSON");
      assertError(await t.as("hamlet").post("/users/me/alert_words", { alert_words: [1] }), "alert_words[0] is not a string", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("hamlet").post("/users/me/alert_words", {}), "Missing 'alert_words' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await t.as("hamlet").delete("/users/me/alert_words", {}), "Missing 'alert_words' argument", "REQUEST_VARIABLE_MISSING");
      assert.deepEqual(await words(), ["é".repeat(100)]);
    });

    it("flags new messages that contain a word with has_alert_word", async () => {
      await createChannel(t, "elsinore", ["hamlet", "othello"]);
      await t.as("hamlet").post("/users/me/alert_words", { alert_words: ["rosemary"] });
      const hit = await sendToChannel(t, "othello", "elsinore", "herbs", "There's Rosemary, that's for remembrance");
      const miss = await sendToChannel(t, "othello", "elsinore", "herbs", "There's rue for you");
      const flagsOf = async (id: number) => (await t.as("hamlet").get(`/messages/${id}`)).body.message.flags as string[];
      assert.ok((await flagsOf(hit)).includes("has_alert_word"));
      assert.ok(!(await flagsOf(miss)).includes("has_alert_word"));
      await t.as("hamlet").delete("/users/me/alert_words", { alert_words: ["rosemary"] });
      const after = await sendToChannel(t, "othello", "elsinore", "herbs", "rosemary again");
      assert.ok(!(await flagsOf(after)).includes("has_alert_word"));
    });

    describe("permissions per endpoint", () => {
      const everyone = ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"] as const;
      it("GET /users/me/alert_words", () => checkPermissions(everyone, (who) => t.as(who).get("/users/me/alert_words")));
      it("POST /users/me/alert_words", () => checkPermissions(everyone, (who) => t.as(who).post("/users/me/alert_words", { alert_words: ["x"] })));
      it("DELETE /users/me/alert_words", () => checkPermissions(everyone, (who) => t.as(who).delete("/users/me/alert_words", { alert_words: ["x"] })));
    });
  });
}
