/**
 * E2EE push registration of a client device (register-push-device as redesigned at FL 468) and the
 * device `update` events and `devices` state it drives, against a real HTTP stand-in for the
 * relay, on every store. The test notification is in push-e2ee-notify.test.ts.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { realmUrl } from "../../src/lib/realm-url.js";
import { readTx } from "../../src/store/db.js";
import { listPushDevices } from "../../src/store/push.js";
import { newPushKey, tokenIdFor, useRelayRealm } from "../helpers/bouncer.js";
import { createTestRealm, EXTERNAL_HOST, type UserName } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The fields the mobile app sends (zulip-flutter's registerPushDevice): the key group and the token group. */
function keyFields() {
  const key = newPushKey();
  return { push_key_id: 4_000_000_000, push_key: key.pushKey };
}
function tokenFields(token: string, tokenKind = "fcm") {
  return { token_kind: tokenKind, token_id: tokenIdFor(token), bouncer_public_key: "bouncer-key-1", encrypted_push_registration: `sealed(${token})` };
}

for (const kind of STORE_KINDS) {
  describe(`E2EE push registration [${kind}]`, () => {
    const relay = useRelayRealm(kind);
    beforeEach(() => {
      relay.t.published.length = 0;
    });

    const newDevice = async (who: UserName) => (await relay.t.as(who).post("/register_client_device")).body.device_id as number;
    const register = (who: UserName, params: Json) => relay.t.as(who).post("/mobile_push/register", params);
    const devicesOf = async (who: UserName) => (await relay.t.as(who).post("/register", { fetch_event_types: ["device"] })).body.devices as Json;
    const updates = () => eventsOf(relay.t, "device", "update").map((e) => e.event);

    it("registers key and token, tells the relay, and reports the device as Zulip does", async () => {
      const device = await newDevice("hamlet");
      // A legacy registration of the same token goes once the E2EE one succeeds (FL 483); another token stays.
      await relay.t.as("hamlet").post("/users/me/android_gcm_reg_id", { token: "fcm-token-1" });
      await relay.t.as("hamlet").post("/users/me/android_gcm_reg_id", { token: "fcm-token-other" });
      relay.t.published.length = 0;
      const key = keyFields();
      const res = await register("hamlet", { device_id: device, ...key, ...tokenFields("fcm-token-1") });
      assert.deepEqual(res.body, { result: "success", msg: "" });
      assert.deepEqual(
        relay.bouncer.requests.map((r) => [r.path, Object.fromEntries(new URLSearchParams(r.body))]),
        [["/api/v1/remotes/push/e2ee/register", { realm_url: realmUrl(EXTERNAL_HOST, "zulip"), ...tokenFields("fcm-token-1") }]],
      );
      const tokenId = tokenIdFor("fcm-token-1");
      assert.deepEqual(updates(), [
        { type: "device", op: "update", device_id: device, push_key_id: key.push_key_id, pending_push_token_id: tokenId, push_token_last_updated_timestamp: relay.t.clock.seconds, push_registration_error_code: null },
        { type: "device", op: "update", device_id: device, push_token_id: tokenId, pending_push_token_id: null },
      ]);
      assert.deepEqual((await devicesOf("hamlet"))[device], {
        push_key_id: key.push_key_id,
        push_token_id: tokenId,
        pending_push_token_id: null,
        push_token_last_updated_timestamp: relay.t.clock.seconds,
        push_registration_error_code: null,
      });
      assert.deepEqual((await listPushDevices(readTx(relay.t.deps.store), relay.t.users.hamlet.id)).map((d) => d.token), ["fcm-token-other"]);

      // The same registration again changes nothing: no relay request, no event.
      relay.bouncer.requests.length = 0;
      relay.t.published.length = 0;
      assert.equal((await register("hamlet", { device_id: device, ...key, ...tokenFields("fcm-token-1") })).status, 200);
      assert.deepEqual([relay.bouncer.requests.length, updates().length], [0, 0]);
    });

    it("rotates the key or the token alone, once a registration exists", async () => {
      const device = await newDevice("othello");
      assertError(await register("othello", { device_id: device, ...keyFields() }), "No push registration exists to rotate key for.");
      assertError(await register("othello", { device_id: device, ...tokenFields("tok-a") }), "No push registration exists to rotate token for.");
      assert.equal((await register("othello", { device_id: device, ...keyFields(), ...tokenFields("tok-a") })).status, 200);
      relay.t.published.length = 0;
      relay.bouncer.requests.length = 0;

      const rotated = { push_key_id: 17, push_key: newPushKey().pushKey };
      assert.equal((await register("othello", { device_id: device, ...rotated })).status, 200);
      assert.deepEqual(updates(), [{ type: "device", op: "update", device_id: device, push_key_id: 17 }]);
      assert.equal(relay.bouncer.requests.length, 0, "a new key is no business of the relay");
      assert.equal((await register("othello", { device_id: device, ...rotated })).status, 200);
      assert.equal(updates().length, 1, "the same key again sends nothing");

      relay.t.clock.seconds += 100;
      assert.equal((await register("othello", { device_id: device, ...tokenFields("tok-b") })).status, 200);
      assert.deepEqual(updates().slice(1), [
        { type: "device", op: "update", device_id: device, pending_push_token_id: tokenIdFor("tok-b"), push_token_last_updated_timestamp: relay.t.clock.seconds, push_registration_error_code: null },
        { type: "device", op: "update", device_id: device, push_token_id: tokenIdFor("tok-b"), pending_push_token_id: null },
      ]);
      assert.equal(relay.bouncer.requests.length, 1);
    });

    it("records the relay's refusal of a registration on the device, and a retry clears it", async () => {
      const device = await newDevice("cordelia");
      for (const [relayCode, recorded] of [["INVALID_BOUNCER_PUBLIC_KEY", "INVALID_BOUNCER_PUBLIC_KEY"], ["REQUEST_EXPIRED", "REQUEST_EXPIRED"], ["BAD_REQUEST", "BAD_REQUEST"], ["SOMETHING_ELSE", "BAD_REQUEST"]]) {
        relay.t.published.length = 0;
        relay.bouncer.answer = { status: 400, body: JSON.stringify({ result: "error", msg: "no", code: relayCode }) };
        const res = await register("cordelia", { device_id: device, ...keyFields(), ...tokenFields("tok-c") });
        assert.deepEqual(res.body, { result: "success", msg: "" }, "Zulip answers success and reports the failure on the device");
        assert.deepEqual(updates()[1], { type: "device", op: "update", device_id: device, push_registration_error_code: recorded });
        const state = (await devicesOf("cordelia"))[device];
        assert.deepEqual([state.pending_push_token_id, state.push_token_id, state.push_registration_error_code], [tokenIdFor("tok-c"), null, recorded]);
      }
      relay.bouncer.answer = { status: 200, body: '{"result":"success","msg":""}' };
      assert.equal((await register("cordelia", { device_id: device, ...keyFields(), ...tokenFields("tok-c") })).status, 200);
      const state = (await devicesOf("cordelia"))[device];
      assert.deepEqual([state.pending_push_token_id, state.push_token_id, state.push_registration_error_code], [null, tokenIdFor("tok-c"), null]);
    });

    it("fails the request and changes nothing when the relay is failing", async () => {
      const device = await newDevice("shiva");
      relay.bouncer.answer = { status: 503, body: "upstream trouble" };
      const res = await register("shiva", { device_id: device, ...keyFields(), ...tokenFields("tok-s") });
      assert.deepEqual([res.status, res.body.code], [502, "INTERNAL_SERVER_ERROR_ON_BOUNCER"]);
      relay.bouncer.answer = { status: 403, body: '{"result":"error","msg":"who are you","code":"UNAUTHORIZED"}' };
      assert.equal((await register("shiva", { device_id: device, ...keyFields(), ...tokenFields("tok-s") })).body.code, "ADMIN_ACTION_REQUIRED");
      assert.equal(updates().length, 0);
      assert.equal((await devicesOf("shiva"))[device].push_key_id, null);
    });

    it("checks its parameters as Zulip does", async () => {
      const device = await newDevice("iago");
      const theirs = await newDevice("hamlet");
      const full = { device_id: device, ...keyFields(), ...tokenFields("tok-i") };
      assertError(await register("iago", { ...full, device_id: theirs }), "Invalid `device_id`");
      assertError(await register("iago", { ...full, device_id: 999_999 }), "Invalid `device_id`");
      assertError(await register("iago", { device_id: device }), "Missing parameters: must provide either all push key fields, all token fields, or both.");
      assertError(await register("iago", { device_id: device, push_key_id: 1, token_id: tokenIdFor("x") }), "Missing parameters: must provide either all push key fields, all token fields, or both.");
      const badKey = Buffer.concat([Buffer.from([0x32]), Buffer.alloc(32)]).toString("base64");
      for (const push_key of ["@abcdefg", "abcd", badKey, "MTaU"]) assertError(await register("iago", { ...full, push_key }), "Invalid `push_key`");
      for (const push_key_id of [-1, 4_294_967_296]) {
        assertError(await register("iago", { ...full, push_key_id }), "Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer", "REQUEST_VARIABLE_INVALID");
      }
      for (const token_id of ["@abcdefg", "hGsEWGmyyfI", "AAAAAAAAAAAAAA=="]) assertError(await register("iago", { ...full, token_id }), "`token_id` is not Base64 encoded");
      assertError(await register("iago", { ...full, token_kind: "webpush" }), "Invalid token_kind", "REQUEST_VARIABLE_INVALID");
      assertError(await register("iago", { ...keyFields() }), "Missing 'device_id' argument", "REQUEST_VARIABLE_MISSING");
      assert.deepEqual([relay.bouncer.requests.length, updates().length], [0, 0]);
    });

    it("keeps a client's devices current: the update events applied as the app does give a fresh register's", async () => {
      const device = await newDevice("desdemona");
      const registered = (await relay.t.as("desdemona").post("/register", { event_types: ["device"] })).body;
      await register("desdemona", { device_id: device, ...keyFields(), ...tokenFields("tok-d") });
      await register("desdemona", { device_id: device, push_key_id: 5, push_key: newPushKey().pushKey });
      relay.bouncer.answer = { status: 400, body: '{"result":"error","msg":"stale","code":"REQUEST_EXPIRED"}' };
      await register("desdemona", { device_id: device, ...tokenFields("tok-e") });
      const events = (await relay.t.as("desdemona").get("/events", { queue_id: registered.queue_id, last_event_id: -1, dont_block: true })).body.events as Json[];
      const devices = structuredClone(registered.devices) as Json;
      // zulip-flutter's PushDeviceManager: each field present in an update event replaces the device's.
      for (const { id: _id, type: _type, op, device_id, ...fields } of events) if (op === "update") Object.assign(devices[device_id], fields);
      assert.deepEqual(devices, await devicesOf("desdemona"));
    });
  });

  describe(`E2EE push registration without a relay [${kind}]`, () => {
    it("is refused as Zulip refuses it: PUSH_SERVICE_NOT_CONFIGURED; bots are refused first", async () => {
      const t = await createTestRealm(kind);
      try {
        const device = (await t.as("hamlet").post("/register_client_device")).body.device_id as number;
        const params = { device_id: device, ...keyFields(), ...tokenFields("tok") };
        assertError(await t.as("hamlet").post("/mobile_push/register", params), "Server is not configured to use push notification service.", "PUSH_SERVICE_NOT_CONFIGURED");
        assertError(await t.as("bot").post("/mobile_push/register", params), "This endpoint does not accept bot requests.");
      } finally {
        await t.close();
      }
    });
  });
}
