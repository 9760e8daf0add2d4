/**
 * Presence and push registration are for people: Zulip marks update_active_status_backend and every
 * push-device view human_users_only, so a bot gets 400 "This endpoint does not accept bot
 * requests." and nothing is stored for it (found by the permission matrix, which allowed bots).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { listPushDevices } from "../../src/store/push.js";
import { listClientDevices } from "../../src/store/client-devices.js";
import { newPushKey, tokenIdFor, useRelayRealm } from "../helpers/bouncer.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** The caller's own client device (open to bots: a device is just a record) and a push registration for it. */
let deviceId = 0;
const registration = () => ({
  device_id: deviceId,
  push_key_id: 7,
  push_key: newPushKey().pushKey,
  token_kind: "fcm",
  token_id: tokenIdFor("fcm-token"),
  bouncer_public_key: "bouncer-key-1",
  encrypted_push_registration: "opaque-for-the-relay",
});

const CALLS: Array<[method: "post" | "delete", path: string, params: () => Record<string, unknown>]> = [
  ["post", "/users/me/presence", () => ({ status: "active" })],
  ["post", "/users/me/apns_device_token", () => ({ token: "c0ffee".repeat(10), appid: "org.zulip.Zulip" })],
  ["delete", "/users/me/apns_device_token", () => ({ token: "c0ffee".repeat(10) })],
  ["post", "/users/me/android_gcm_reg_id", () => ({ token: "fcm-token" })],
  ["delete", "/users/me/android_gcm_reg_id", () => ({ token: "fcm-token" })],
  ["post", "/mobile_push/register", registration],
  ["post", "/mobile_push/e2ee/test_notification", () => ({})],
  ["post", "/mobile_push/test_notification", () => ({})],
];

for (const kind of STORE_KINDS) {
  describe(`human-only endpoints [${kind}]`, () => {
    const relay = useRelayRealm(kind);

    it("refuse bots and store nothing for them", async () => {
      deviceId = (await relay.t.as("bot").post("/register_client_device")).body.device_id;
      for (const [method, path, params] of CALLS) {
        const res = await relay.t.as("bot")[method](path, params());
        assert.deepEqual(
          [res.status, res.body],
          [400, { result: "error", msg: "This endpoint does not accept bot requests.", code: "BAD_REQUEST" }],
          `${method} ${path}`,
        );
      }
      assert.deepEqual(await listPushDevices(readTx(relay.t.deps.store), relay.t.users.bot.id), []);
      const [device] = await listClientDevices(readTx(relay.t.deps.store), relay.t.users.bot.id);
      assert.deepEqual([device.push_key, device.push_token_kind], [null, null]);
      const presence = await relay.t.as("hamlet").get(`/users/${relay.t.users.bot.id}/presence`);
      assert.equal(presence.body.msg, `No presence data for ${relay.t.users.bot.email}`);
    });

    it("still serve people", async () => {
      deviceId = (await relay.t.as("hamlet").post("/register_client_device")).body.device_id;
      for (const [method, path, params] of CALLS.slice(0, 6)) {
        const res = await relay.t.as("hamlet")[method](path, params());
        assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
      }
      // Past the bot check, a person without a device meets the next check (spec 4.21, section 7).
      assert.equal((await relay.t.as("cordelia").post("/mobile_push/e2ee/test_notification")).body.code, "NO_ACTIVE_PUSH_DEVICE");
    });
  });
}
