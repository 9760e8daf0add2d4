/**
 * POST /users/me/api_key/regenerate removes the user's client devices and their E2EE push
 * registrations (FL 492), telling the user's clients; other users' devices stay. Every store.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { newPushKey, tokenIdFor } from "../helpers/bouncer.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`API key regeneration and client devices [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const devices = async (who: "cordelia" | "hamlet") => {
      const res = await t.as(who).post("/register", { fetch_event_types: ["device"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.devices as Record<string, { push_key_id: number | null }>;
    };

    it("removes every device of the user, with its push registration, and only theirs", async () => {
      const first = (await t.as("cordelia").post("/register_client_device")).body.device_id as number;
      const second = (await t.as("cordelia").post("/register_client_device")).body.device_id as number;
      const other = (await t.as("hamlet").post("/register_client_device")).body.device_id as number;
      const key = newPushKey();
      const registered = await t.as("cordelia").post("/mobile_push/register", {
        device_id: first, push_key_id: 11, push_key: key.pushKey, token_kind: "fcm", token_id: tokenIdFor("token-cordelia"),
        bouncer_public_key: "bouncer-key-1", encrypted_push_registration: "opaque",
      });
      // Without a configured relay the registration is refused; the device exists either way.
      assert.ok([200, 400].includes(registered.status), JSON.stringify(registered.body));
      assert.deepEqual(Object.keys(await devices("cordelia")).map(Number).sort((a, b) => a - b), [first, second]);

      t.published.length = 0;
      const res = await t.as("cordelia").post("/users/me/api_key/regenerate");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      t.users.cordelia.apiKey = res.body.api_key as string;
      assert.deepEqual(await devices("cordelia"), {});
      assert.deepEqual(Object.keys(await devices("hamlet")).map(Number), [other]);
      const removed = eventsOf(t, "device", "remove");
      assert.deepEqual(removed.map((e) => e.event.device_id).sort((a, b) => Number(a) - Number(b)), [first, second]);
      assert.ok(removed.every((e) => e.userIds.length === 1 && e.userIds[0] === t.users.cordelia.id));
      // A device id of the removed set is unknown now.
      const gone = await t.as("cordelia").post("/remove_client_device", { device_id: first });
      assert.equal(gone.status, 400);
      assert.equal(gone.body.msg, "Invalid `device_id`");
    });

    it("leaves devices alone when regenerating fails for want of credentials", async () => {
      await t.as("cordelia").post("/register_client_device");
      const res = await t.as(null).post("/users/me/api_key/regenerate");
      assert.equal(res.status, 401);
      assert.equal(Object.keys(await devices("cordelia")).length, 1);
    });
  });
}
