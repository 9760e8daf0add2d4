/**
 * Mobile push (issue 7, item 6): legacy APNs/FCM token registration. E2EE registration and the
 * test notification are in push-e2ee.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { readTx } from "../../src/store/db.js";
import { listPushDevices } from "../../src/store/push.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const HEX_TOKEN = "c0ffee".repeat(10) + "abcd";

for (const kind of STORE_KINDS) {
  describe(`push token registration [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    const devices = (who: "hamlet" | "othello", k: "apns" | "fcm") => listPushDevices(readTx(t.deps.store), t.users[who].id, k);

    it("adds an APNs token with its app id, once however often it is sent, and removes it", async () => {
      const add = await t.as("hamlet").post("/users/me/apns_device_token", { token: HEX_TOKEN, appid: "org.zulip.Zulip" });
      assert.deepEqual(add.body, { result: "success", msg: "" });
      assert.equal((await t.as("hamlet").post("/users/me/apns_device_token", { token: HEX_TOKEN, appid: "org.zulip.Zulip2" })).status, 200);
      const [device] = await devices("hamlet", "apns");
      assert.equal((await devices("hamlet", "apns")).length, 1);
      assert.deepEqual([device.token, device.app_id], [HEX_TOKEN, "org.zulip.Zulip2"]);
      assert.equal((await t.as("hamlet").delete("/users/me/apns_device_token", { token: HEX_TOKEN })).status, 200);
      assert.deepEqual(await devices("hamlet", "apns"), []);
      const again = await t.as("hamlet").delete("/users/me/apns_device_token", { token: HEX_TOKEN });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, { result: "error", msg: "Token does not exist", code: "BAD_REQUEST" });
    });

    it("refuses bad APNs tokens and app ids", async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ token: "", appid: "org.zulip.Zulip" }, "Empty or invalid length token"],
        [{ token: "ab".repeat(2049), appid: "org.zulip.Zulip" }, "Empty or invalid length token"],
        [{ token: "not-hex!", appid: "org.zulip.Zulip" }, "Invalid APNS token"],
        [{ token: HEX_TOKEN, appid: "org/zulip" }, "Invalid app ID"],
      ];
      for (const [params, msg] of cases) {
        const res = await t.as("hamlet").post("/users/me/apns_device_token", params);
        assert.equal(res.status, 400, msg);
        assert.equal(res.body.msg, msg);
      }
      const missing = await t.as("hamlet").post("/users/me/apns_device_token", { token: HEX_TOKEN });
      assert.equal(missing.body.code, "REQUEST_VARIABLE_MISSING");
      assert.deepEqual(await devices("hamlet", "apns"), []);
    });

    it("adds and removes an FCM token, per user", async () => {
      assert.equal((await t.as("hamlet").post("/users/me/android_gcm_reg_id", { token: "fcm:opaque_token-1" })).status, 200);
      const otherUser = await t.as("othello").delete("/users/me/android_gcm_reg_id", { token: "fcm:opaque_token-1" });
      assert.equal(otherUser.body.msg, "Token does not exist");
      assert.equal((await devices("hamlet", "fcm")).length, 1);
      assert.equal((await t.as("hamlet").delete("/users/me/android_gcm_reg_id", { token: "fcm:opaque_token-1" })).status, 200);
      assert.equal((await t.as("hamlet").post("/users/me/android_gcm_reg_id", { token: "" })).body.msg, "Empty or invalid length token");
    });

    it("bounds a token's UTF-8 bytes to what the (user, kind, token) index holds (found by fuzzing: a 500 on PostgreSQL)", async () => {
      const fits = "x".repeat(2048);
      assert.equal((await t.as("hamlet").post("/users/me/android_gcm_reg_id", { token: fits })).status, 200);
      for (const token of ["x".repeat(2049), "😀".repeat(1000)]) {
        const res = await t.as("hamlet").post("/users/me/android_gcm_reg_id", { token });
        assert.equal(res.status, 400);
        assert.equal(res.body.msg, "Empty or invalid length token");
      }
      assert.equal((await devices("hamlet", "fcm")).length, 1);
    });
  });
}
