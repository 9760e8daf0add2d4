/**
 * Mobile push for new messages (issue 19) against a real HTTP stand-in for the relay, on every
 * store, with the test clock: a DM reaches the user's E2EE device (sealed to its key) and legacy
 * tokens in Zulip's payload shapes (https://zulip.com/api/mobile-notifications, FL 413/429, and the
 * legacy FCM/APNs data), reading it sends "remove"; a relay failure is retried with back-off and
 * never fails the send; the legacy test notification (test-notify).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deliverDueNotifications, RETRY_DELAYS_SECONDS } from "../../src/actions/notifications/deliver.js";
import { realmUrl } from "../../src/lib/realm-url.js";
import { newPushKey, openNotification, tokenIdFor, useRelayRealm } from "../helpers/bouncer.js";
import { EXTERNAL_HOST, type UserName } from "../helpers/fixtures.js";
import { createChannel, sendDm, sendToChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

const REALM_URL = realmUrl(EXTERNAL_HOST, "zulip");

/** The keys of Zulip's documented E2EE payloads (api_docs/mobile-notifications.md; FL 429 recipient_user_ids). */
const E2EE_DM_KEYS = ["content", "message_id", "realm_name", "realm_url", "recipient_type", "recipient_user_ids", "sender_avatar_url", "sender_full_name", "sender_id", "time", "type", "user_id"];
const E2EE_CHANNEL_KEYS = ["channel_id", "channel_name", "content", "message_id", "realm_name", "realm_url", "recipient_type", "sender_avatar_url", "sender_full_name", "sender_id", "time", "topic", "type", "user_id"];
const E2EE_REMOVE_KEYS = ["message_ids", "realm_name", "realm_url", "type", "user_id"];

for (const kind of STORE_KINDS) {
  describe(`mobile push notifications [${kind}]`, () => {
    const relay = useRelayRealm(kind);
    let counter = 0;

    async function phone(who: UserName): Promise<{ secret: Uint8Array; tokenId: string; pushKeyId: number }> {
      const deviceId = (await relay.t.as(who).post("/register_client_device")).body.device_id as number;
      const key = newPushKey();
      const pushKeyId = ++counter;
      const tokenId = tokenIdFor(`token-${who}-${counter}`);
      const res = await relay.t.as(who).post("/mobile_push/register", {
        device_id: deviceId, push_key_id: pushKeyId, push_key: key.pushKey, token_kind: "fcm", token_id: tokenId,
        bouncer_public_key: "bouncer-key-1", encrypted_push_registration: "opaque",
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      relay.bouncer.requests.length = 0;
      return { secret: key.secret, tokenId, pushKeyId };
    }
    const deliver = () => deliverDueNotifications(relay.t.deps, 100);
    const sent = (path: string) => relay.bouncer.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body));
    const pending = () => relay.t.deps.store.db.selectFrom("pending_notifications").selectAll().execute();
    const clearPending = () => relay.t.deps.store.db.deleteFrom("pending_notifications").execute();

    it("pushes a DM to an E2EE device and a legacy token, then removes it once read", async () => {
      await clearPending();
      const device = await phone("othello");
      assert.equal((await relay.t.as("othello").post("/users/me/android_gcm_reg_id", { token: "legacy-fcm-token" })).status, 200);
      const id = await sendDm(relay.t, "hamlet", ["othello"], "Where is **the handkerchief**?");
      await deliver();

      const [e2ee] = sent("/api/v1/remotes/push/e2ee/notify");
      assert.equal(e2ee.realm_url, REALM_URL);
      assert.deepEqual(e2ee.push_requests.map((r: { token_id: string; push_key_id: number }) => [r.token_id, r.push_key_id]), [[device.tokenId, device.pushKeyId]]);
      const payload = openNotification(e2ee.push_requests[0].encrypted_data, device.secret) as Record<string, unknown>;
      assert.deepEqual(Object.keys(payload).sort(), E2EE_DM_KEYS);
      const { hamlet, othello } = relay.t.users;
      assert.deepEqual(
        { ...payload, sender_avatar_url: undefined },
        {
          type: "message", realm_url: REALM_URL, realm_name: "Zulip Dev", user_id: othello.id, message_id: id, time: relay.t.clock.seconds,
          content: "Where is the handkerchief?", sender_id: hamlet.id, sender_full_name: "King Hamlet", sender_avatar_url: undefined,
          recipient_type: "direct", recipient_user_ids: [hamlet.id, othello.id].sort((a, b) => a - b),
        },
      );
      assert.match(String(payload.sender_avatar_url), /^https?:\/\//);

      const [legacy] = sent("/api/v1/remotes/push/notify");
      assert.deepEqual([legacy.user_id, legacy.android_devices, legacy.apple_devices], [othello.id, ["legacy-fcm-token"], []]);
      assert.equal(legacy.gcm_payload.event, "message");
      assert.equal(legacy.gcm_payload.zulip_message_id, id);
      assert.equal(legacy.gcm_payload.recipient_type, "private");
      assert.equal(legacy.gcm_payload.sender_email, hamlet.email);
      assert.equal(legacy.gcm_payload.realm_url, REALM_URL);
      assert.deepEqual(legacy.gcm_options, { priority: "high" });
      assert.deepEqual(legacy.apns_payload.custom.zulip.message_ids, [id]);
      assert.equal(legacy.apns_payload.alert.title, "King Hamlet");
      assert.equal(legacy.apns_payload.alert.body, "Where is the handkerchief?");

      relay.bouncer.requests.length = 0;
      assert.equal((await relay.t.as("othello").post("/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" })).status, 200);
      await deliver();
      const [remove] = sent("/api/v1/remotes/push/e2ee/notify");
      const removal = openNotification(remove.push_requests[0].encrypted_data, device.secret) as Record<string, unknown>;
      assert.deepEqual(Object.keys(removal).sort(), E2EE_REMOVE_KEYS);
      assert.deepEqual(removal, { type: "remove", realm_url: REALM_URL, realm_name: "Zulip Dev", user_id: othello.id, message_ids: [id] });
      const [legacyRemove] = sent("/api/v1/remotes/push/notify");
      assert.equal(legacyRemove.gcm_payload.event, "remove");
      assert.equal(legacyRemove.gcm_payload.zulip_message_ids, String(id));
      assert.deepEqual(legacyRemove.gcm_options, { priority: "normal" });

      // Read again (mark all as read): nothing more is shown, so nothing more is removed.
      relay.bouncer.requests.length = 0;
      await relay.t.as("othello").post("/mark_all_as_read");
      await deliver();
      assert.deepEqual(relay.bouncer.requests, []);
    });

    it("pushes a channel mention with the channel and topic; a message read before the push goes unpushed", async () => {
      await clearPending();
      const device = await phone("cordelia");
      const verona = await createChannel(relay.t, "Verona", ["hamlet", "cordelia"]);
      relay.bouncer.requests.length = 0;
      const id = await sendToChannel(relay.t, "hamlet", "Verona", "castle", "@**Cordelia, Lear's daughter** hello");
      await deliver();
      const [e2ee] = sent("/api/v1/remotes/push/e2ee/notify");
      const payload = openNotification(e2ee.push_requests[0].encrypted_data, device.secret) as Record<string, unknown>;
      assert.deepEqual(Object.keys(payload).sort(), E2EE_CHANNEL_KEYS);
      assert.deepEqual([payload.recipient_type, payload.channel_id, payload.channel_name, payload.topic, payload.message_id], ["channel", verona, "Verona", "castle", id]);

      relay.bouncer.requests.length = 0;
      const unseen = await sendDm(relay.t, "hamlet", ["cordelia"], "read at once");
      await relay.t.as("cordelia").post("/messages/flags", { messages: JSON.stringify([unseen]), op: "add", flag: "read" });
      await deliver();
      assert.deepEqual(relay.bouncer.requests, [], "neither a push nor a remove");
    });

    it("names a group mention (mentioned_user_group_id / _name), and pushes a mention added by an edit", async () => {
      await clearPending();
      const device = await phone("othello");
      assert.equal((await relay.t.as("othello").post("/users/me/android_gcm_reg_id", { token: "legacy-group-token" })).status, 200);
      await createChannel(relay.t, "Cyprus", ["hamlet", "othello", "cordelia"]);
      const group = await relay.t.as("iago").post("/user_groups/create", { name: "moors", description: "", members: JSON.stringify([relay.t.users.othello.id]) });
      assert.equal(group.status, 200, JSON.stringify(group.body));
      relay.bouncer.requests.length = 0;
      const id = await sendToChannel(relay.t, "hamlet", "Cyprus", "storm", "@*moors* to the harbour");
      await deliver();
      // othello's phone of the first test is registered too: open what was sealed to this one.
      const mine = (request: { push_requests: Array<{ push_key_id: number; encrypted_data: string }> }) =>
        openNotification(request.push_requests.find((r) => r.push_key_id === device.pushKeyId)!.encrypted_data, device.secret) as Record<string, unknown>;
      const [e2ee] = sent("/api/v1/remotes/push/e2ee/notify");
      const payload = mine(e2ee);
      assert.deepEqual([payload.message_id, payload.mentioned_user_group_id, payload.mentioned_user_group_name], [id, group.body.group_id, "moors"]);
      const [legacy] = sent("/api/v1/remotes/push/notify");
      assert.deepEqual([legacy.gcm_payload.mentioned_user_group_id, legacy.gcm_payload.mentioned_user_group_name], [group.body.group_id, "moors"]);
      assert.equal(legacy.apns_payload.alert.subtitle, "King Hamlet mentioned @moors:");

      relay.bouncer.requests.length = 0;
      const plain = await sendToChannel(relay.t, "hamlet", "Cyprus", "storm", "no mention yet");
      await deliver();
      assert.deepEqual(sent("/api/v1/remotes/push/e2ee/notify"), [], "a channel message without a mention pushes nothing");
      const edit = await relay.t.as("hamlet").patch(`/messages/${plain}`, { content: "now @**Othello, the Moor of Venice** is mentioned" });
      assert.equal(edit.status, 200, JSON.stringify(edit.body));
      await deliver();
      const [edited] = sent("/api/v1/remotes/push/e2ee/notify");
      const editedPayload = mine(edited);
      assert.deepEqual([editedPayload.message_id, editedPayload.content, editedPayload.mentioned_user_group_id], [plain, "now @Othello, the Moor of Venice is mentioned", undefined]);
      relay.bouncer.requests.length = 0;
      assert.equal((await relay.t.as("hamlet").patch(`/messages/${plain}`, { content: "still @**Othello, the Moor of Venice**, edited again" })).status, 200);
      await deliver();
      assert.deepEqual(sent("/api/v1/remotes/push/e2ee/notify"), [], "mentioned before the second edit: no second push");
    });

    it("retries a failing relay with back-off, logs, and never fails the send", async () => {
      await clearPending();
      const device = await phone("iago");
      relay.bouncer.answer = { status: 502, body: "bad gateway" };
      const res = await relay.t.as("hamlet").post("/messages", { type: "private", to: JSON.stringify([relay.t.users.iago.id]), content: "retry me" });
      assert.equal(res.status, 200, "the send does not wait for the relay");
      await deliver();
      const [row] = (await pending()).filter((p) => p.kind === "push");
      assert.equal(row.attempts, 1);
      assert.equal(Number(row.due_at), relay.t.clock.seconds + RETRY_DELAYS_SECONDS[0]);
      relay.bouncer.answer = { status: 200, body: '{"result":"success","msg":""}' };
      relay.bouncer.requests.length = 0;
      await deliver();
      assert.deepEqual(relay.bouncer.requests, [], "not before its time");
      relay.t.clock.seconds += RETRY_DELAYS_SECONDS[0];
      await deliver();
      const [e2ee] = sent("/api/v1/remotes/push/e2ee/notify");
      assert.equal((openNotification(e2ee.push_requests[0].encrypted_data, device.secret) as { content: string }).content, "retry me");
      assert.deepEqual((await pending()).filter((p) => p.kind === "push"), []);
    });

    it("sends the legacy test notification (test-notify)", async () => {
      assert.equal((await relay.t.as("shiva").post("/users/me/apns_device_token", { token: "abcd01", appid: "org.zulip.Zulip" })).status, 200);
      relay.bouncer.requests.length = 0;
      const ok = await relay.t.as("shiva").post("/mobile_push/test_notification", { token: "abcd01" });
      assert.deepEqual(ok.body, { result: "success", msg: "" });
      const [legacy] = sent("/api/v1/remotes/push/notify");
      assert.deepEqual(legacy.apple_devices, ["abcd01"]);
      assert.equal(legacy.gcm_payload.event, "test");
      assert.equal(legacy.gcm_payload.realm_name, "Zulip Dev");
      const unknown = await relay.t.as("shiva").post("/mobile_push/test_notification", { token: "ffff" });
      assert.deepEqual([unknown.status, unknown.body.code, unknown.body.msg], [400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized"]);
      relay.bouncer.answer = { status: 400, body: '{"result":"error","msg":"no","code":"INVALID_REMOTE_PUSH_DEVICE_TOKEN"}' };
      const refused = await relay.t.as("shiva").post("/mobile_push/test_notification", {});
      assert.deepEqual([refused.status, refused.body.code], [400, "INVALID_REMOTE_PUSH_DEVICE_TOKEN"]);
    });
  });
}
