/**
 * require_e2ee_push_notifications (FL 409) against a stand-in relay, on every store: while it is
 * on, a device registered with a plain token gets the push without the message's content, and an
 * E2EE device still gets it all (sealed to its key).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deliverDueNotifications } from "../../src/actions/notifications/deliver.js";
import { newPushKey, openNotification, tokenIdFor, useRelayRealm } from "../helpers/bouncer.js";
import { sendDm } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`pushes under require_e2ee_push_notifications [${kind}]`, () => {
    const relay = useRelayRealm(kind);
    const sent = (path: string) => relay.bouncer.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body));

    it("leaves message content out of legacy-token pushes only while the setting is on", async () => {
      const t = relay.t;
      const deviceId = (await t.as("othello").post("/register_client_device")).body.device_id as number;
      const key = newPushKey();
      const registered = await t.as("othello").post("/mobile_push/register", {
        device_id: deviceId, push_key_id: 7, push_key: key.pushKey, token_kind: "fcm", token_id: tokenIdFor("token-othello"),
        bouncer_public_key: "bouncer-key-1", encrypted_push_registration: "opaque",
      });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      assert.equal((await t.as("othello").post("/users/me/android_gcm_reg_id", { token: "legacy-fcm-token" })).status, 200);

      assert.equal((await t.as("iago").patch("/realm", { require_e2ee_push_notifications: true })).status, 200);
      relay.bouncer.requests.length = 0;
      await sendDm(t, "hamlet", ["othello"], "The **secret** plan");
      await deliverDueNotifications(t.deps, 100);
      const [legacy] = sent("/api/v1/remotes/push/notify");
      assert.equal(legacy.gcm_payload.content, "New message");
      assert.equal(legacy.apns_payload.alert.body, "New message");
      assert.ok(!JSON.stringify(legacy).includes("secret"));
      const [e2ee] = sent("/api/v1/remotes/push/e2ee/notify");
      const payload = openNotification(e2ee.push_requests[0].encrypted_data, key.secret) as Record<string, unknown>;
      assert.equal(payload.content, "The secret plan");

      assert.equal((await t.as("iago").patch("/realm", { require_e2ee_push_notifications: false })).status, 200);
      relay.bouncer.requests.length = 0;
      await sendDm(t, "hamlet", ["othello"], "An open plan");
      await deliverDueNotifications(t.deps, 100);
      assert.equal(sent("/api/v1/remotes/push/notify")[0].gcm_payload.content, "An open plan");
    });
  });
}
