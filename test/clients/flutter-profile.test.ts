/**
 * The official mobile app's start-up and everyday requests (zulip-flutter: lib/api/route/*.dart,
 * lib/model/store.dart), replayed against a listening Parley with the app's exact parameters and
 * encoding: values JSON-encoded except those it sends raw, GET parameters in the query string,
 * the rest form-encoded, its User-Agent, Basic auth except for the emoji data file. Each answer
 * is checked against what the app's parsers require (flutter-requirements.ts), so a key the app
 * reads without a null check, or an enum value it does not know, fails here as it would fail the
 * app (issue 15). The app talks to a realm at its URL, so the realm is the root one, reached at
 * http://127.0.0.1:PORT, with EXTERNAL_HOST set to match.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { checkCreateUser } from "../../src/actions/users/users.js";
import { encodePng } from "../../src/lib/png.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import { freePort } from "../helpers/server-process.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, multipartBody, type UploadRealm } from "../helpers/uploads.js";
import * as need from "./flutter-requirements.js";

/** A value the app sends without JSON encoding (its RawParameter). */
class Raw {
  constructor(readonly value: string) {}
}

const USER_AGENT = "ZulipFlutter/30.0.257 (Android 14)";
const PASSWORD = "a long enough password";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

/** The app's ApiConnection, in the few lines it takes: see the file header. */
class FlutterConnection {
  constructor(
    readonly realmUrl: string,
    readonly auth: string | null,
  ) {}

  static encode(params: Record<string, unknown>): URLSearchParams {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, v instanceof Raw ? v.value : JSON.stringify(v));
    return form;
  }

  async send(method: string, url: string, body?: URLSearchParams, useAuth = true): Promise<{ status: number; body: Body; headers: Headers }> {
    const headers: Record<string, string> = { "user-agent": USER_AGENT };
    if (useAuth && this.auth) headers.authorization = this.auth;
    if (body) headers["content-type"] = "application/x-www-form-urlencoded; charset=utf-8";
    const res = await fetch(url, { method, headers, body: body?.toString() });
    return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
  }

  get(path: string, params: Record<string, unknown> = {}) {
    const query = FlutterConnection.encode(params).toString();
    return this.send("GET", `${this.realmUrl}/api/v1/${path}${query ? `?${query}` : ""}`);
  }

  post(path: string, params: Record<string, unknown>) {
    return this.send("POST", `${this.realmUrl}/api/v1/${path}`, FlutterConnection.encode(params));
  }

  delete(path: string, params: Record<string, unknown>) {
    return this.send("DELETE", `${this.realmUrl}/api/v1/${path}`, FlutterConnection.encode(params));
  }

  /** An image the app loads (RealmContentNetworkImage): with credentials on the realm, redirects followed. */
  async image(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const res = await fetch(new URL(url, this.realmUrl), { headers: { "user-agent": USER_AGENT, ...(this.auth ? { authorization: this.auth } : {}) } });
    return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
  }
}

/** The register request of lib/api/route/events.dart, parameter for parameter. */
const REGISTER_PARAMS = {
  idle_queue_timeout: "mobile",
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
    user_settings_object: true, include_deactivated_groups: true, empty_topic_name: true, individual_emoji_changes: true,
  },
};

for (const kind of STORE_KINDS) {
  describe(`the mobile app's profile [${kind}]`, () => {
    let t: UploadRealm;
    let realmUrl: string;
    let anonymous: FlutterConnection;
    let app: FlutterConnection;
    let other: FlutterConnection;
    let ids: { me: number; other: number; channel: number };
    let snapshot: Body;
    let sentId: number;
    let lastEventId: number;

    before(async () => {
      const port = await freePort();
      t = await createUploadRealm(kind, { externalHost: `127.0.0.1:${port}`, eventHeartbeatSeconds: 1, rateLimiting: false });
      const root = await checkCreateRealm(t.deps.store, { subdomain: "", name: "Mobile", ownerEmail: "alice@mobile.test", ownerName: "Alice", ownerPassword: PASSWORD }, t.clock.now());
      const realm = (await getRealmById(readTx(t.deps.store), root.realmId))!;
      const bob = await transaction(t.deps.store, (tx) => checkCreateUser(tx, realm, { email: "bob@mobile.test", fullName: "Bob", password: PASSWORD, role: 400, botType: null, botOwnerId: null }, t.clock.now()));
      await t.app.listen({ port, host: "127.0.0.1" });
      realmUrl = `http://127.0.0.1:${port}`;
      anonymous = new FlutterConnection(realmUrl, null);
      other = new FlutterConnection(realmUrl, "Basic " + Buffer.from(`bob@mobile.test:${bob.apiKey}`).toString("base64"));
      const channel = await new FlutterConnection(realmUrl, "Basic " + Buffer.from(`alice@mobile.test:${root.owner.apiKey}`).toString("base64"))
        .post("channels/create", { name: new Raw("general"), subscribers: [root.owner.userId, bob.userId] });
      assert.equal(channel.status, 200, JSON.stringify(channel.body));
      ids = { me: root.owner.userId, other: bob.userId, channel: channel.body.id };
      // Data the snapshot must carry in forms the app parses: a :zulip: status and reaction.
      const hello = await other.post("messages", { type: new Raw("channel"), to: ids.channel, topic: new Raw("greetings"), content: new Raw("hello") });
      assert.equal(hello.status, 200, JSON.stringify(hello.body));
      await other.post(`messages/${hello.body.id}/reactions`, { emoji_name: new Raw("zulip"), emoji_code: new Raw("zulip"), reaction_type: new Raw("zulip_extra_emoji") });
      await other.post("users/me/status", { status_text: new Raw("busy"), emoji_name: new Raw("zulip"), emoji_code: new Raw("zulip"), reaction_type: new Raw("zulip_extra_emoji") });
    });
    after(() => t.close());

    it("reads the server settings and logs in with a password", async () => {
      const settings = await anonymous.get("server_settings");
      assert.equal(settings.status, 200, JSON.stringify(settings.body));
      need.assertParses(settings.body, need.SERVER_SETTINGS, "server_settings");
      assert.equal(settings.body.zulip_feature_level, 496);
      const login = await anonymous.post("fetch_api_key", { username: new Raw("alice@mobile.test"), password: new Raw(PASSWORD) });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      need.assertParses(login.body, need.FETCH_API_KEY, "fetch_api_key");
      app = new FlutterConnection(realmUrl, "Basic " + Buffer.from(`${login.body.email}:${login.body.api_key}`).toString("base64"));
    });

    it("registers with the app's exact parameters, every one accepted, and the snapshot parses", async () => {
      const res = await app.post("register", REGISTER_PARAMS);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.ignored_parameters_unsupported, undefined, "every parameter the app sends is understood");
      need.assertParses(res.body, need.SNAPSHOT, "the register snapshot");
      assert.equal(res.body.idle_queue_timeout_secs, 12 * 60 * 60);
      assert.equal(res.body.user_status[String(ids.other)].reaction_type, "zulip_extra_emoji");
      snapshot = res.body;
      lastEventId = res.body.last_event_id;
    });

    it("downloads the emoji data without credentials", async () => {
      const res = await anonymous.send("GET", snapshot.server_emoji_data_url, undefined, false);
      assert.equal(res.status, 200);
      need.assertParses(res.body, need.SERVER_EMOJI_DATA, "the server emoji data");
      assert.ok(Object.keys(res.body.code_to_names).length > 1000);
    });

    it("loads every avatar, at both sizes, the fallback /avatar/{id} ones and the realm icon", async () => {
      for (const user of snapshot.realm_users) {
        const urls = [
          user.avatar_url,
          // The app's "medium" rule for a file avatar (avatar_url.dart): the path's .png → -medium.png.
          new URL(user.avatar_url, realmUrl).href.replace(/\.png(\?|$)/, "-medium.png$1"),
          `/avatar/${user.user_id}`,
          `/avatar/${user.user_id}/medium`,
        ];
        for (const url of urls) {
          const image = await app.image(url);
          assert.equal(image.status, 200, url);
          assert.equal(image.type, "image/png", url);
          assert.deepEqual([...image.bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], url);
        }
      }
      const icon = await app.image(snapshot.realm_icon_url);
      assert.equal(icon.status, 200);
      assert.equal(icon.type, "image/png");
    });

    it("fetches messages with the app's narrows and anchors", async () => {
      const first = (await app.get("messages", { narrow: [], anchor: new Raw("newest"), num_before: 100, num_after: 100, allow_empty_topic_name: true })).body;
      need.assertParses(first, need.GET_MESSAGES, "GET /messages");
      assert.ok(first.messages.length > 0);
      for (const m of first.messages) need.assertParses(m, need.messageModel(m), `message ${m.id}`);
      const reaction = first.messages[0].reactions[0];
      assert.equal(reaction.reaction_type, "zulip_extra_emoji");
      const narrows = [
        [[{ operator: "channel", operand: ids.channel }], "first_unread"],
        [[{ operator: "channel", operand: ids.channel }, { operator: "topic", operand: "greetings" }, { operator: "with", operand: first.messages[0].id }], String(first.messages[0].id)],
        [[{ operator: "dm", operand: [ids.me, ids.other] }], "newest"],
        [[{ operator: "is", operand: "starred" }], "newest"],
        [[{ operator: "search", operand: "hello" }], "newest"],
      ] as const;
      for (const [narrow, anchor] of narrows) {
        const res = await app.get("messages", { narrow, anchor: new Raw(anchor), num_before: 100, num_after: 100, allow_empty_topic_name: true });
        assert.equal(res.status, 200, `${JSON.stringify(narrow)}: ${JSON.stringify(res.body)}`);
        need.assertParses(res.body, need.GET_MESSAGES, `GET /messages ${JSON.stringify(narrow)}`);
      }
    });

    it("sends a message and hears it back, with its local id", async () => {
      const sent = await app.post("messages", {
        type: new Raw("channel"), to: ids.channel, topic: new Raw("greetings"), content: new Raw("hi **Bob**"),
        queue_id: new Raw(snapshot.queue_id), local_id: new Raw("1.5"), read_by_sender: true,
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      need.assertParses(sent.body, need.SEND_MESSAGE, "POST /messages");
      sentId = sent.body.id;
      const polled = await app.get("events", { queue_id: new Raw(snapshot.queue_id), last_event_id: lastEventId });
      need.assertParses(polled.body, need.GET_EVENTS, "GET /events");
      const event = polled.body.events.find((e: Body) => e.type === "message");
      need.assertParses(event, need.MESSAGE_EVENT, "the message event");
      need.assertParses({ ...event.message, flags: event.flags }, need.messageModel(event.message), "the message event's message");
      assert.equal(event.local_message_id, "1.5");
      assert.ok(event.flags.includes("read"), "read_by_sender");
      lastEventId = polled.body.events.at(-1).id;
    });

    it("reacts with a Unicode emoji and the :zulip: emoji, and takes one back", async () => {
      for (const [name, code, type] of [["thumbs_up", "1f44d", "unicode_emoji"], ["zulip", "zulip", "zulip_extra_emoji"]]) {
        const res = await app.post(`messages/${sentId}/reactions`, { emoji_name: new Raw(name), emoji_code: new Raw(code), reaction_type: new Raw(type) });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const removed = await app.delete(`messages/${sentId}/reactions`, { emoji_name: new Raw("thumbs_up"), emoji_code: new Raw("1f44d"), reaction_type: new Raw("unicode_emoji") });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      const polled = await app.get("events", { queue_id: new Raw(snapshot.queue_id), last_event_id: lastEventId });
      const reactions = polled.body.events.filter((e: Body) => e.type === "reaction");
      assert.deepEqual(reactions.map((e: Body) => `${e.op} ${e.emoji_name}`), ["add thumbs_up", "add zulip", "remove thumbs_up"]);
      for (const e of reactions) need.assertParses(e, need.REACTION_EVENT, "a reaction event");
      lastEventId = polled.body.events.at(-1).id;
      const message = await app.get(`messages/${sentId}`, { allow_empty_topic_name: true });
      need.assertParses(message.body.message, need.messageModel(message.body.message), "GET /messages/{id}");
    });

    it("hears of a new custom emoji as the one emoji added", async () => {
      const { payload, contentType } = multipartBody([{ filename: "party.png", content: encodePng(4, 4, Buffer.alloc(48, 0x40)), contentType: "image/png" }]);
      const upload = await fetch(`${realmUrl}/api/v1/realm/emoji/party`, { method: "POST", headers: { authorization: other.auth ?? "", "content-type": contentType }, body: new Uint8Array(payload) });
      assert.equal(upload.status, 200, await upload.text());
      const polled = await app.get("events", { queue_id: new Raw(snapshot.queue_id), last_event_id: lastEventId });
      const added = polled.body.events.find((e: Body) => e.type === "realm_emoji");
      assert.equal(added.op, "add");
      need.assertParses(added.emoji, (need.SNAPSHOT.needs.realm_emoji as { mapOf: need.Kind }).mapOf, "the added emoji");
      lastEventId = polled.body.events.at(-1).id;
    });

    it("reports presence, marks a message read and types", async () => {
      const presence = await app.post("users/me/presence", { last_update_id: -1, new_user_input: true, ping_only: false, status: new Raw("active"), slim_presence: true });
      assert.equal(presence.status, 200, JSON.stringify(presence.body));
      need.assertParses(presence.body, need.UPDATE_PRESENCE, "POST /users/me/presence");
      assert.ok(String(ids.me) in presence.body.presences);
      const read = await other.post("messages/flags", { messages: [sentId], op: new Raw("add"), flag: new Raw("read") });
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const typing = await app.post("typing", { op: new Raw("start"), type: new Raw("channel"), stream_id: ids.channel, topic: new Raw("greetings") });
      assert.equal(typing.status, 200, JSON.stringify(typing.body));
    });
  });
}
