/**
 * The compiled serialisers of hot answers (present/answer-serializers.ts) must write exactly what
 * JSON.stringify writes, member for member — never drop, rename or retype one — and GET /users/me's
 * kept answer (actions/users/own-user.ts) must follow every change, made through the API or behind the
 * process's back, on every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ownUserAnswer } from "../../src/actions/users/own-user.js";
import { serializeOwnUser } from "../../src/present/answer-serializers.js";
import { readTx } from "../../src/store/db.js";
import { getUserById } from "../../src/store/users.js";
import { behindTheBack } from "../helpers/behind-the-back.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** Same value as JSON.stringify's output, and valid JSON. */
function assertSameJson(compiled: string, value: unknown): void {
  assert.deepStrictEqual(JSON.parse(compiled), JSON.parse(JSON.stringify(value)));
}

describe("compiled answer serialisers", () => {
  it("write members the schema does not list, nulls, odd strings and nested values as JSON.stringify does", () => {
    const answer = {
      user_id: 7, delivery_email: null, email: 'quote"back\\slash@x.test', full_name: "Ünïcode \u2028 line \u0007 bell 😀",
      date_joined: "2024-01-01T00:00:00+00:00", is_active: true, is_owner: false, is_admin: false, is_guest: true, is_bot: false,
      role: 600, timezone: "", avatar_url: null, avatar_version: 3, is_deleted: true, max_message_id: -1,
      profile_data: { "3": { value: "x", rendered_value: "<p>x</p>" }, "4": { value: "[1,2]" } },
      a_member_added_later: [1, { nested: null }], skipped: undefined,
    };
    assertSameJson(serializeOwnUser(answer), answer);
    // A member the schema types differently from what a row carries would be coerced: caught here.
    assertSameJson(serializeOwnUser({ ...answer, bot_type: 1, bot_owner_id: 9, is_imported_stub: false }), { ...answer, bot_type: 1, bot_owner_id: 9, is_imported_stub: false });
  });
});

for (const kind of STORE_KINDS) {
  describe(`GET /users/me's answer [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("serialises every kind of account's answer as JSON.stringify does", async () => {
      for (const name of ["desdemona", "iago", "hamlet", "polonius", "bot"] as UserName[]) {
        const row = (await getUserById(readTx(t.deps.store), t.realmId, t.users[name].id))!;
        const answer = await ownUserAnswer(t.deps, row);
        assertSameJson(serializeOwnUser(answer), answer);
        const res = await t.as(name).get("/users/me");
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepStrictEqual(res.body, { result: "success", msg: "", ...JSON.parse(JSON.stringify(answer)) });
      }
    });

    it("follows changes made through the API and behind the process's back", async () => {
      const me = () => t.as("hamlet").get("/users/me");
      const first = (await me()).body.full_name;
      assert.equal((await me()).body.full_name, first);
      assert.equal((await t.as("hamlet").patch("/settings", { full_name: "Prince Hamlet" })).status, 200);
      assert.equal((await me()).body.full_name, "Prince Hamlet");
      await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", ["Hamlet of Denmark", t.users.hamlet.id]);
      assert.equal((await me()).body.full_name, "Hamlet of Denmark");
      const before = (await me()).body.max_message_id;
      const sent = await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([t.users.hamlet.id]), content: "hi" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const after = (await me()).body.max_message_id;
      assert.equal(after, sent.body.id);
      assert.notEqual(after, before);
    });

    it("keeps ignored_parameters_unsupported in the envelope", async () => {
      const res = await t.as("hamlet").get("/users/me", { bogus: 1 });
      assert.deepStrictEqual(res.body.ignored_parameters_unsupported, ["bogus"]);
      assert.equal(res.body.result, "success");
      assert.equal(typeof res.body.user_id, "number");
    });
  });
}
