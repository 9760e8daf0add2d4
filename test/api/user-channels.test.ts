/**
 * Zulip's get-user-channels (GET /users/{user_id}/channels, FL 440), on every store: the target's
 * subscribed channels the caller may see (all of them for administrators), archived ones left
 * out, and "No such user" for ids naming nobody in the realm.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { archiveChannel, createChannel } from "../helpers/conversations.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`a user's channels [${kind}]`, () => {
    let t: TestRealm;
    let open: number;
    let secret: number;
    let archived: number;
    before(async () => {
      t = await createTestRealm(kind);
      open = await createChannel(t, "open", ["othello", "hamlet", "polonius"]);
      secret = await createChannel(t, "secret", ["othello"], { invite_only: true });
      archived = await createChannel(t, "archived", ["othello"]);
      await archiveChannel(t, archived);
      await createChannel(t, "elsewhere", ["hamlet"]);
    });
    after(() => t.close());

    const channels = async (who: UserName, target: number) => {
      const res = await t.as(who).get(`/users/${target}/channels`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.subscribed_channel_ids as number[];
    };

    it("lists the target's channels whose metadata the caller may see", async () => {
      assert.deepEqual(await channels("iago", t.users.othello.id), [open, secret].sort((a, b) => a - b));
      assert.deepEqual(await channels("othello", t.users.othello.id), [open, secret].sort((a, b) => a - b));
      // A member sees public channels and the private ones they belong to; a guest only what they are in.
      assert.deepEqual(await channels("hamlet", t.users.othello.id), [open]);
      assert.deepEqual(await channels("polonius", t.users.othello.id), [open]);
      assert.deepEqual(await channels("hamlet", t.users.cordelia.id), []);
      assert.deepEqual(await channels("hamlet", t.users.bot.id), []);
      assert.ok(!(await channels("iago", t.users.othello.id)).includes(archived));
    });

    it("answers No such user for ids of nobody here", async () => {
      assertError(await t.as("hamlet").get("/users/999999/channels"), "No such user");
      assertError(await t.as("hamlet").get("/users/abc/channels"), "Not Found", "BAD_REQUEST", 404);
    });

    it("is open to every account", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get(`/users/${t.users.othello.id}/channels`));
    });
  });
}
