/** Your status (spec 4.12) and reading another user's status, on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { transaction } from "../../src/store/db.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { CALLERS, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`user status [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const statusOf = async (id: number) => (await t.as("othello").get(`/users/${id}/status`)).body.status;

    it("sets text and emoji, changing only what is passed", async () => {
      t.published.length = 0;
      const res = await t.as("hamlet").post("/users/me/status", { status_text: "  on vacation  ", emoji_name: "car" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const event = t.published.find((e) => e.event.type === "user_status");
      assert.deepEqual(event?.event, {
        type: "user_status",
        user_id: t.users.hamlet.id,
        status_text: "on vacation",
        emoji_name: "car",
        emoji_code: "1f697",
        reaction_type: "unicode_emoji",
      });
      assert.ok(event?.userIds.includes(t.users.polonius.id));
      assert.deepEqual(await statusOf(t.users.hamlet.id), {
        status_text: "on vacation",
        emoji_name: "car",
        emoji_code: "1f697",
        reaction_type: "unicode_emoji",
      });
      await t.as("hamlet").post("/users/me/status", { status_text: "busy" });
      assert.equal((await statusOf(t.users.hamlet.id)).emoji_name, "car");
      await t.as("hamlet").post("/users/me/status", { emoji_name: "" });
      assert.deepEqual(await statusOf(t.users.hamlet.id), { status_text: "busy" });
      await t.as("hamlet").post("/users/me/status", { status_text: "" });
      assert.deepEqual(await statusOf(t.users.hamlet.id), {});
    });

    it("accepts explicit codes, custom emoji and the service's extra emoji", async () => {
      const ok = async (params: Record<string, unknown>) => {
        const res = await t.as("hamlet").post("/users/me/status", params);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      };
      await ok({ emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" });
      await ok({ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
      assert.equal((await statusOf(t.users.hamlet.id)).reaction_type, "zulip_extra_emoji");
      const emojiId = await transaction(t.deps.store, async (tx) => {
        const row = await tx.db
          .insertInto("realm_emoji")
          .values({ realm_id: t.realmId, name: "green_tick", author_id: t.users.iago.id, file_name: "1.png" })
          .returning("id")
          .executeTakeFirstOrThrow();
        return row.id;
      });
      await ok({ emoji_name: "green_tick" });
      assert.deepEqual(await statusOf(t.users.hamlet.id), { emoji_name: "green_tick", emoji_code: String(emojiId), reaction_type: "realm_emoji" });
      assertError(await t.as("hamlet").post("/users/me/status", { emoji_name: "green_tick", emoji_code: "999", reaction_type: "realm_emoji" }), "Invalid custom emoji.");
    });

    it("turns presence sharing off through the deprecated away flag", async () => {
      t.published.length = 0;
      assert.equal((await t.as("hamlet").post("/users/me/status", { away: true })).status, 200);
      assert.deepEqual(await statusOf(t.users.hamlet.id), { away: true });
      assert.ok(t.published.some((e) => e.event.type === "user_settings" && e.event.property === "presence_enabled" && e.event.value === false));
      assert.equal(t.published.find((e) => e.event.type === "user_status")?.event.away, true);
      await t.as("hamlet").post("/users/me/status", { away: false });
      assert.deepEqual(await statusOf(t.users.hamlet.id), {});
    });

    it("refuses every invalid request listed by the spec", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, "Client did not pass any new values."],
        [{ status_text: "x".repeat(61) }, "status_text is too long (limit: 60 characters)"],
        [{ status_text: "x", emoji_code: "1f697" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
        [{ away: false, reaction_type: "unicode_emoji" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
        [{ emoji_name: "no_such_emoji" }, "Emoji 'no_such_emoji' does not exist"],
        [{ emoji_name: "car", emoji_code: "1f44d", reaction_type: "unicode_emoji" }, "Invalid emoji name."],
        [{ emoji_name: "car", emoji_code: "ffff", reaction_type: "unicode_emoji" }, "Invalid emoji code."],
        [{ emoji_name: "car", emoji_code: "7", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
        [{ emoji_name: "car", emoji_code: "car", reaction_type: "other_emoji" }, "Invalid emoji type."],
      ];
      for (const [params, msg] of cases) assertError(await t.as("hamlet").post("/users/me/status", params), msg);
      assert.equal((await t.as("hamlet").post("/users/me/status", { status_text: "😀".repeat(60) })).status, 200);
    });

    it("lets humans set their status and anyone read one", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius"], (caller) =>
        t.as(caller).post("/users/me/status", { status_text: `${caller} here` }),
      );
      assertError(await t.as("bot").post("/users/me/status", { status_text: "beep" }), "This endpoint does not accept bot requests.");
      await checkPermissions(CALLERS, (caller) => t.as(caller).get(`/users/${t.users.hamlet.id}/status`));
      assertError(await t.as("hamlet").get("/users/99999/status"), "No such user");
    });

    it("lets administrators, bots among them, set another user's status (FL 407, 473)", async () => {
      t.published.length = 0;
      const res = await t.as("iago").post(`/users/${t.users.hamlet.id}/status`, { status_text: "In a meeting", emoji_name: "calendar" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(await statusOf(t.users.hamlet.id), { status_text: "In a meeting", emoji_name: "calendar", emoji_code: "1f4c6", reaction_type: "unicode_emoji" });
      const event = t.published.find((e) => e.event.type === "user_status");
      assert.equal(event?.event.user_id, t.users.hamlet.id);
      assert.ok(event?.userIds.includes(t.users.othello.id));
      // Members, owners of nothing here, and the target themselves are refused.
      assertError(await t.as("othello").post(`/users/${t.users.hamlet.id}/status`, { status_text: "x" }), "Insufficient permission");
      assertError(await t.as("hamlet").post(`/users/${t.users.hamlet.id}/status`, { status_text: "x" }), "Insufficient permission");
      assertError(await t.as("iago").post(`/users/${t.users.bot.id}/status`, { status_text: "x" }), "No such user");
      assertError(await t.as("iago").post("/users/99999/status", { status_text: "x" }), "No such user");
      assertError(await t.as("iago").post(`/users/${t.users.hamlet.id}/status`, {}), "Client did not pass any new values.");
      // An administrator bot may.
      assertError(await t.as("bot").post(`/users/${t.users.hamlet.id}/status`, { status_text: "x" }), "Insufficient permission");
      assert.equal((await t.as("desdemona").patch(`/bots/${t.users.bot.id}`, { role: 200 })).status, 200);
      const byBot = await t.as("bot").post(`/users/${t.users.hamlet.id}/status`, { status_text: "Out sick", emoji_name: "" });
      assert.equal(byBot.status, 200, JSON.stringify(byBot.body));
      assert.deepEqual(await statusOf(t.users.hamlet.id), { status_text: "Out sick" });
      // A deactivated user's status stays theirs.
      assert.equal((await t.as("iago").delete(`/users/${t.users.cordelia.id}`)).status, 200);
      assertError(await t.as("iago").post(`/users/${t.users.cordelia.id}/status`, { status_text: "x" }), "User is deactivated");
    });
  });
}
