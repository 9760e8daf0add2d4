/**
 * The E2EE test notification (spec 4.21; `device_id` names a client device since FL 468) with
 * every push error code of spec section 7, against a real HTTP stand-in for the relay: each
 * registered device gets the payload sealed to its own push key, as the mobile app opens it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { realmUrl } from "../../src/lib/realm-url.js";
import { newPushKey, openNotification, startBouncer, tokenIdFor, useRelayRealm } from "../helpers/bouncer.js";
import { createTestRealm, EXTERNAL_HOST, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const REALM_URL = realmUrl(EXTERNAL_HOST, "zulip");

interface Phone {
  deviceId: number;
  secret: Uint8Array;
  pushKeyId: number;
  tokenId: string;
}

for (const kind of STORE_KINDS) {
  describe(`E2EE test notification [${kind}]`, () => {
    const relay = useRelayRealm(kind);

    let counter = 0;
    /** A client device with a completed registration, made as the mobile app makes it. */
    async function phone(who: UserName, tokenKind: "fcm" | "apns" = "fcm"): Promise<Phone> {
      const deviceId = (await relay.t.as(who).post("/register_client_device")).body.device_id as number;
      const key = newPushKey();
      const pushKeyId = ++counter;
      const tokenId = tokenIdFor(`token-${who}-${counter}`);
      const res = await relay.t.as(who).post("/mobile_push/register", {
        device_id: deviceId,
        push_key_id: pushKeyId,
        push_key: key.pushKey,
        token_kind: tokenKind,
        token_id: tokenId,
        bouncer_public_key: "bouncer-key-1",
        encrypted_push_registration: "opaque",
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      relay.bouncer.requests.length = 0;
      return { deviceId, secret: key.secret, pushKeyId, tokenId };
    }
    const notify = (who: UserName, params: Record<string, unknown> = {}) => relay.t.as(who).post("/mobile_push/e2ee/test_notification", params);

    it("is NO_ACTIVE_PUSH_DEVICE without a registered device, legacy tokens and bare devices notwithstanding", async () => {
      await relay.t.as("cordelia").post("/users/me/android_gcm_reg_id", { token: "legacy" });
      await relay.t.as("cordelia").post("/register_client_device");
      const res = await notify("cordelia");
      assert.deepEqual([res.status, res.body], [400, { result: "error", msg: "No active registered push device", code: "NO_ACTIVE_PUSH_DEVICE" }]);
      assert.deepEqual(relay.bouncer.requests, []);
    });

    it("sends each device a test notification only its own key opens, labelled with the key's id", async () => {
      const handset = await phone("hamlet");
      const tablet = await phone("hamlet", "apns");
      const all = await notify("hamlet");
      assert.deepEqual(all.body, { result: "success", msg: "" });
      assert.equal(relay.bouncer.requests.length, 1);
      const request = relay.bouncer.requests[0];
      assert.equal(request.path, "/api/v1/remotes/push/e2ee/notify");
      assert.match(request.contentType, /^application\/json/);
      const body = JSON.parse(request.body);
      assert.equal(body.realm_url, REALM_URL);
      const requests = body.push_requests as Array<{ token_id: string; token_kind: string; push_key_id: number; encrypted_data: string }>;
      assert.deepEqual(
        requests.map((r) => [r.token_id, r.token_kind, r.push_key_id]),
        [[handset.tokenId, "fcm", handset.pushKeyId], [tablet.tokenId, "apns", tablet.pushKeyId]],
      );
      const expected = { type: "test", realm_name: "Zulip Dev", realm_url: REALM_URL, user_id: relay.t.users.hamlet.id, time: relay.t.clock.seconds };
      assert.deepEqual(openNotification(requests[0].encrypted_data, handset.secret), expected);
      assert.deepEqual(openNotification(requests[1].encrypted_data, tablet.secret), expected);
      assert.throws(() => openNotification(requests[0].encrypted_data, tablet.secret), "another device's key cannot open it");
      assert.ok(!request.body.includes("Zulip Dev"), "the relay sees no plaintext");

      relay.bouncer.requests.length = 0;
      assert.equal((await notify("hamlet", { device_id: handset.deviceId })).status, 200);
      assert.deepEqual(JSON.parse(relay.bouncer.requests[0].body).push_requests.map((r: { token_id: string }) => r.token_id), [handset.tokenId]);
    });

    it("is NO_ACTIVE_PUSH_DEVICE for a device_id that is not one of the caller's registered devices", async () => {
      const theirs = await phone("othello");
      for (const deviceId of [theirs.deviceId + 1000, theirs.deviceId]) {
        const res = await notify("iago", { device_id: deviceId });
        assert.deepEqual([res.status, res.body.code], [400, "NO_ACTIVE_PUSH_DEVICE"]);
      }
      assert.equal((await notify("othello", { device_id: theirs.deviceId })).status, 200);
    });

    it("is INTERNAL_SERVER_ERROR_ON_BOUNCER when the relay answers 5xx", async () => {
      await phone("shiva");
      for (const status of [500, 503]) {
        relay.bouncer.answer = { status, body: "upstream trouble" };
        const res = await notify("shiva");
        assert.deepEqual([res.status, res.body], [502, { result: "error", msg: "Internal server error on the push notification service; try again later.", code: "INTERNAL_SERVER_ERROR_ON_BOUNCER" }]);
      }
    });

    it("is ADMIN_ACTION_REQUIRED when the relay refuses this server, and passes on other refusals", async () => {
      await phone("desdemona");
      relay.bouncer.answer = { status: 401, body: '{"result":"error","msg":"Invalid credentials","code":"UNAUTHORIZED"}' };
      const refused = await notify("desdemona");
      assert.deepEqual([refused.status, refused.body.code], [403, "ADMIN_ACTION_REQUIRED"]);
      relay.bouncer.answer = { status: 400, body: '{"result":"error","msg":"Unknown push device","code":"BAD_REQUEST"}' };
      const rejected = await notify("desdemona");
      assert.deepEqual([rejected.status, rejected.body], [400, { result: "error", msg: "The push notification service rejected the request: Unknown push device", code: "BAD_REQUEST" }]);
    });

    it("is FAILED_TO_CONNECT_BOUNCER when the relay cannot be reached (last: it stops the relay)", async () => {
      await phone("polonius");
      await relay.bouncer.stop();
      const res = await notify("polonius");
      assert.deepEqual([res.status, res.body], [502, { result: "error", msg: "Network error while connecting to the push notification service.", code: "FAILED_TO_CONNECT_BOUNCER" }]);
    });
  });

  describe(`E2EE test notification without a relay [${kind}]`, () => {
    it("is ADMIN_ACTION_REQUIRED for a device registered while a relay was configured", async () => {
      const bouncer = await startBouncer();
      const t = await createTestRealm(kind, { pushBouncerUrl: bouncer.url });
      try {
        const deviceId = (await t.as("hamlet").post("/register_client_device")).body.device_id as number;
        const params = { device_id: deviceId, push_key_id: 1, push_key: newPushKey().pushKey, token_kind: "fcm", token_id: tokenIdFor("t"), bouncer_public_key: "k", encrypted_push_registration: "e" };
        assert.equal((await t.as("hamlet").post("/mobile_push/register", params)).status, 200);
        t.deps.config.pushBouncerUrl = null;
        const res = await t.as("hamlet").post("/mobile_push/e2ee/test_notification");
        assert.deepEqual([res.status, res.body], [403, { result: "error", msg: "Mobile push notifications are not configured on this server.", code: "ADMIN_ACTION_REQUIRED" }]);
      } finally {
        await t.close();
        await bouncer.stop();
      }
    });
  });
}
