/**
 * Logged-in client devices (Zulip's register-client-device, FL 468, and remove-client-device,
 * FL 470): the `devices` register state and `device` events, on every store.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** A device nothing has been registered for yet, as `devices` in POST /register shows it. */
const BLANK_DEVICE = {
  push_key_id: null,
  push_token_id: null,
  pending_push_token_id: null,
  push_token_last_updated_timestamp: null,
  push_registration_error_code: null,
};

for (const kind of STORE_KINDS) {
  describe(`client devices [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const register = async (who: "hamlet" | "othello" = "hamlet") => {
      const res = await t.as(who).post("/register_client_device");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ["device_id", "msg", "result"]);
      return res.body.device_id as number;
    };
    const devicesOf = async (who: "hamlet" | "othello" = "hamlet") => (await t.as(who).post("/register", { fetch_event_types: ["device"] })).body.devices;

    it("registers devices, lists them in register by id, and tells the user's own clients", async () => {
      t.published.length = 0;
      const first = await register();
      const second = await register();
      assert.notEqual(first, second);
      assert.deepEqual(await devicesOf(), { [first]: BLANK_DEVICE, [second]: BLANK_DEVICE });
      // Registering with no event types fetches everything, devices included.
      assert.deepEqual((await t.as("hamlet").post("/register", {})).body.devices, { [first]: BLANK_DEVICE, [second]: BLANK_DEVICE });
      assert.deepEqual((await devicesOf("othello")), {});
      const added = eventsOf(t, "device", "add");
      assert.deepEqual(added.map((e) => e.event), [{ type: "device", op: "add", device_id: first }, { type: "device", op: "add", device_id: second }]);
      assert.ok(added.every((e) => e.userIds.length === 1 && e.userIds[0] === t.users.hamlet.id));
    });

    it("delivers device events to an event queue", async () => {
      const queue = (await t.as("hamlet").post("/register", { event_types: ["device"] })).body.queue_id as string;
      const id = await register();
      assert.equal((await t.as("hamlet").post("/remove_client_device", { device_id: id })).status, 200);
      const events = (await t.as("hamlet").get("/events", { queue_id: queue, last_event_id: -1, dont_block: true })).body.events as Array<Record<string, unknown>>;
      assert.deepEqual(events.map(({ id: _id, ...rest }) => rest), [
        { type: "device", op: "add", device_id: id },
        { type: "device", op: "remove", device_id: id },
      ]);
    });

    it("keeps a client's copy current: the events applied to register's devices give a fresh register's", async () => {
      const old = await register();
      const registered = (await t.as("hamlet").post("/register", { event_types: ["device"] })).body;
      const added = await register();
      assert.equal((await t.as("hamlet").post("/remove_client_device", { device_id: old })).status, 200);
      const events = (await t.as("hamlet").get("/events", { queue_id: registered.queue_id, last_event_id: -1, dont_block: true })).body.events as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
      const devices = { ...(registered.devices as Record<string, unknown>) };
      // As the mobile app's PushDeviceManager applies them: add makes a blank device, remove drops it.
      for (const e of events) {
        if (e.op === "add") devices[e.device_id] = { ...BLANK_DEVICE };
        else if (e.op === "remove") delete devices[e.device_id];
      }
      assert.deepEqual(devices, { [added]: BLANK_DEVICE });
      assert.deepEqual(devices, await devicesOf("hamlet"));
    });

    it("removes only the caller's own devices, with Zulip's error for any other id", async () => {
      const mine = await register();
      const theirs = await register("othello");
      t.published.length = 0;
      assertError(await t.as("hamlet").post("/remove_client_device", { device_id: theirs }), "Invalid `device_id`");
      assertError(await t.as("hamlet").post("/remove_client_device", { device_id: 999_999 }), "Invalid `device_id`");
      assertError(await t.as("hamlet").post("/remove_client_device", {}), "Missing 'device_id' argument", "REQUEST_VARIABLE_MISSING");
      assertError(await t.as("hamlet").post("/remove_client_device", { device_id: "one" }), "device_id is not an integer", "REQUEST_VARIABLE_INVALID");
      assert.equal(t.published.length, 0);
      assert.deepEqual(Object.keys(await devicesOf("othello")), [String(theirs)]);

      assert.equal((await t.as("hamlet").post("/remove_client_device", { device_id: mine })).status, 200);
      assert.deepEqual(eventsOf(t, "device", "remove").map((e) => [e.event, e.userIds]), [[{ type: "device", op: "remove", device_id: mine }, [t.users.hamlet.id]]]);
      assert.deepEqual(await devicesOf(), {});
      assertError(await t.as("hamlet").post("/remove_client_device", { device_id: mine }), "Invalid `device_id`");
    });

    it("is open to every account, as Zulip's view checks no role", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).post("/register_client_device"));
    });
  });
}
