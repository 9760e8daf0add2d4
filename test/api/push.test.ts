/**
 * Mobile push (issue 7, item 6): APNs/FCM token registration, E2EE device registration, and the E2EE
 * test notification (spec 4.21) with every push error code of section 7, against a real HTTP
 * stand-in for the relay.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { realmUrl } from "../../src/lib/realm-url.js";
import { readTx } from "../../src/store/db.js";
import { listPushDevices } from "../../src/store/push.js";
import { startBouncer, deviceKeyPair, openSealed, type Bouncer } from "../helpers/bouncer.js";
import { createTestRealm, EXTERNAL_HOST, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const HEX_TOKEN = "c0ffee".repeat(10) + "abcd";
const REALM_URL = realmUrl(EXTERNAL_HOST, "zulip");

function registration(publicKey: string, pushAccountId: number) {
  return {
    push_account_id: pushAccountId,
    token_kind: "fcm",
    push_public_key: publicKey,
    bouncer_public_key: "bouncer-key-1",
    encrypted_push_registration: "opaque-for-the-relay",
  };
}

for (const kind of STORE_KINDS) {
  describe(`push token registration [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    const devices = (who: "hamlet" | "othello", k: "apns" | "fcm" | "e2ee") => listPushDevices(readTx(t.deps.store), t.users[who].id, k);

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

    it("registers an E2EE device with its public key, and refuses a bad key or token kind", async () => {
      const key = deviceKeyPair();
      const res = await t.as("hamlet").post("/mobile_push/register", registration(key.publicKey, 2408));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof res.body.device_id, "number");
      const [device] = await devices("hamlet", "e2ee");
      assert.deepEqual([device.id, device.token, device.app_id, device.public_key], [res.body.device_id, "2408", "fcm", key.publicKey]);
      const again = await t.as("hamlet").post("/mobile_push/register", { ...registration(deviceKeyPair().publicKey, 2408), token_kind: "apns" });
      assert.equal(again.body.device_id, res.body.device_id, "the same push account is updated, not added");

      const badKey = await t.as("hamlet").post("/mobile_push/register", registration("c2hvcnQ=", 1));
      assert.deepEqual(badKey.body, { result: "error", msg: "Invalid push_public_key", code: "BAD_REQUEST" });
      const badKind = await t.as("hamlet").post("/mobile_push/register", { ...registration(key.publicKey, 1), token_kind: "webpush" });
      assert.equal(badKind.body.code, "REQUEST_VARIABLE_INVALID");
      assert.equal((await devices("hamlet", "e2ee")).length, 1);
    });
  });

  describe(`E2EE test notification [${kind}]`, () => {
    let bouncer: Bouncer;
    let t: TestRealm;
    let unconfigured: TestRealm;
    before(async () => {
      bouncer = await startBouncer();
      t = await createTestRealm(kind, { pushBouncerUrl: bouncer.url });
      unconfigured = await createTestRealm(kind);
    });
    after(async () => {
      await t.close();
      await unconfigured.close();
      await bouncer.stop().catch(() => undefined);
    });
    beforeEach(() => {
      bouncer.requests.length = 0;
      bouncer.answer = { status: 200, body: '{"result":"success","msg":""}' };
    });

    it("is NO_ACTIVE_PUSH_DEVICE without an E2EE device, legacy tokens notwithstanding", async () => {
      await t.as("cordelia").post("/users/me/android_gcm_reg_id", { token: "legacy" });
      const res = await t.as("cordelia").post("/mobile_push/e2ee/test_notification");
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { result: "error", msg: "No active registered push device", code: "NO_ACTIVE_PUSH_DEVICE" });
      assert.deepEqual(bouncer.requests, []);
    });

    it("is ADMIN_ACTION_REQUIRED when no push service is configured", async () => {
      const reg = await unconfigured.as("hamlet").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 7));
      assert.equal(reg.status, 200, JSON.stringify(reg.body));
      const res = await unconfigured.as("hamlet").post("/mobile_push/e2ee/test_notification");
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { result: "error", msg: "Mobile push notifications are not configured on this server.", code: "ADMIN_ACTION_REQUIRED" });
    });

    it("registers with the relay, then sends each device a test notification only it can read", async () => {
      const phone = deviceKeyPair();
      const tablet = deviceKeyPair();
      const first = await t.as("hamlet").post("/mobile_push/register", registration(phone.publicKey, 11));
      const second = await t.as("hamlet").post("/mobile_push/register", { ...registration(tablet.publicKey, 12), token_kind: "apns" });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const regs = bouncer.requests.map((r) => ({ path: r.path, form: Object.fromEntries(new URLSearchParams(r.body)) }));
      assert.equal(regs[0].path, "/api/v1/remotes/push/e2ee/register");
      assert.deepEqual(regs[0].form, {
        realm_url: REALM_URL,
        push_account_id: "11",
        token_kind: "fcm",
        encrypted_push_registration: "opaque-for-the-relay",
        bouncer_public_key: "bouncer-key-1",
      });
      bouncer.requests.length = 0;

      const all = await t.as("hamlet").post("/mobile_push/e2ee/test_notification");
      assert.deepEqual(all.body, { result: "success", msg: "" });
      assert.equal(bouncer.requests.length, 1);
      const notify = bouncer.requests[0];
      assert.equal(notify.path, "/api/v1/remotes/push/e2ee/notify");
      assert.match(notify.contentType, /^application\/json/);
      const body = JSON.parse(notify.body);
      assert.equal(body.realm_url, REALM_URL);
      assert.deepEqual(body.push_requests.map((r: { push_account_id: number; token_kind: string }) => [r.push_account_id, r.token_kind]), [[11, "fcm"], [12, "apns"]]);
      const expected = { type: "test", realm_name: "Zulip Dev", realm_url: REALM_URL, user_id: t.users.hamlet.id, time: t.clock.seconds };
      assert.deepEqual(openSealed(body.push_requests[0].encrypted_data, phone.privateKey), expected);
      assert.deepEqual(openSealed(body.push_requests[1].encrypted_data, tablet.privateKey), expected);
      assert.throws(() => openSealed(body.push_requests[0].encrypted_data, tablet.privateKey), "another device's key cannot open it");
      assert.ok(!notify.body.includes("Zulip Dev"), "the relay sees no plaintext");

      bouncer.requests.length = 0;
      const one = await t.as("hamlet").post("/mobile_push/e2ee/test_notification", { device_id: first.body.device_id });
      assert.equal(one.status, 200);
      assert.deepEqual(JSON.parse(bouncer.requests[0].body).push_requests.map((r: { push_account_id: number }) => r.push_account_id), [11]);
    });

    it("is NO_ACTIVE_PUSH_DEVICE for a device_id that is not the user's E2EE device", async () => {
      const mine = await t.as("othello").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 21));
      for (const deviceId of [mine.body.device_id + 1000, mine.body.device_id]) {
        const res = await t.as("iago").post("/mobile_push/e2ee/test_notification", { device_id: deviceId });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, "NO_ACTIVE_PUSH_DEVICE");
      }
      bouncer.requests.length = 0;
      assert.equal((await t.as("othello").post("/mobile_push/e2ee/test_notification", { device_id: mine.body.device_id })).status, 200);
    });

    it("is INTERNAL_SERVER_ERROR_ON_BOUNCER when the relay answers 5xx", async () => {
      await t.as("shiva").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 31));
      for (const status of [500, 503]) {
        bouncer.answer = { status, body: "upstream trouble" };
        const res = await t.as("shiva").post("/mobile_push/e2ee/test_notification");
        assert.equal(res.status, 502);
        assert.deepEqual(res.body, {
          result: "error",
          msg: "Internal server error on the push notification service; try again later.",
          code: "INTERNAL_SERVER_ERROR_ON_BOUNCER",
        });
      }
    });

    it("is ADMIN_ACTION_REQUIRED when the relay refuses this server, and passes on other refusals", async () => {
      await t.as("desdemona").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 41));
      bouncer.answer = { status: 401, body: '{"result":"error","msg":"Invalid credentials","code":"UNAUTHORIZED"}' };
      const refused = await t.as("desdemona").post("/mobile_push/e2ee/test_notification");
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, "ADMIN_ACTION_REQUIRED");
      bouncer.answer = { status: 400, body: '{"result":"error","msg":"Unknown push account","code":"BAD_REQUEST"}' };
      const rejected = await t.as("desdemona").post("/mobile_push/e2ee/test_notification");
      assert.equal(rejected.status, 400);
      assert.deepEqual(rejected.body, { result: "error", msg: "The push notification service rejected the request: Unknown push account", code: "BAD_REQUEST" });
    });

    it("refuses a registration the relay rejects, storing nothing", async () => {
      bouncer.answer = { status: 502, body: "bad gateway" };
      const res = await t.as("cordelia").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 51));
      assert.equal(res.status, 502);
      assert.equal(res.body.code, "INTERNAL_SERVER_ERROR_ON_BOUNCER");
      assert.deepEqual(await listPushDevices(readTx(t.deps.store), t.users.cordelia.id, "e2ee"), []);
    });

    it("is FAILED_TO_CONNECT_BOUNCER when the relay cannot be reached (last: it stops the relay)", async () => {
      await t.as("polonius").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 61));
      await bouncer.stop();
      const res = await t.as("polonius").post("/mobile_push/e2ee/test_notification");
      assert.equal(res.status, 502);
      assert.deepEqual(res.body, {
        result: "error",
        msg: "Network error while connecting to the push notification service.",
        code: "FAILED_TO_CONNECT_BOUNCER",
      });
      const reg = await t.as("polonius").post("/mobile_push/register", registration(deviceKeyPair().publicKey, 62));
      assert.equal(reg.body.code, "FAILED_TO_CONNECT_BOUNCER");
      assert.equal((await listPushDevices(readTx(t.deps.store), t.users.polonius.id, "e2ee")).length, 1);
    });
  });
}
