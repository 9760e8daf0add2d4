/**
 * How the official clients call the endpoints issue 15 added, written down as data: for each call,
 * the client function it comes from, the exact request it makes (method, path, parameter names,
 * and how values are encoded: zulip-flutter's encodeParameters sends RawParameter strings as they
 * are and everything else as compact JSON; the Python bindings send strings as they are and
 * everything else as json.dumps text, with its ", " and ": " separators; GET parameters go in the
 * query string, others in a form body), and what the client requires of the answer (the fields
 * its JSON parsers read, with their types, as in zulip-flutter's *.g.dart and the Python callers).
 * Each call is replayed against the server and its answer checked against those requirements.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { newPushKey, startBouncer, tokenIdFor, type Bouncer } from "../helpers/bouncer.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { createChannel, sendToChannel } from "../helpers/conversations.js";

/** A JSON shape a client parser requires. */
type Shape = "int" | "string" | "bool" | { nullable: Shape } | { list: Shape } | { map: Shape } | { object: Record<string, Shape> };

function problems(value: unknown, shape: Shape, path: string): string[] {
  if (typeof shape === "string") {
    const ok = shape === "int" ? Number.isInteger(value) : shape === "string" ? typeof value === "string" : typeof value === "boolean";
    return ok ? [] : [`${path}: expected ${shape}, got ${JSON.stringify(value)}`];
  }
  if ("nullable" in shape) return value === null || value === undefined ? [] : problems(value, shape.nullable, path);
  if ("list" in shape) return Array.isArray(value) ? value.flatMap((v, i) => problems(v, shape.list, `${path}[${i}]`)) : [`${path}: expected a list`];
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${path}: expected an object`];
  const entries = Object.entries(value as Record<string, unknown>);
  if ("map" in shape) return entries.flatMap(([k, v]) => problems(v, shape.map, `${path}.${k}`));
  return Object.entries(shape.object).flatMap(([k, s]) => problems((value as Record<string, unknown>)[k], s, `${path}.${k}`));
}

// zulip-flutter lib/api/model/model.g.dart
const SAVED_SNIPPET: Shape = { object: { id: "int", title: "string", content: "string", date_created: "int" } };
const CLIENT_DEVICE: Shape = {
  object: {
    push_key_id: { nullable: "int" },
    push_token_id: { nullable: "string" },
    pending_push_token_id: { nullable: "string" },
    push_token_last_updated_timestamp: { nullable: "int" },
    push_registration_error_code: { nullable: "string" },
  },
};

/** A value the Dart client sends as it is (RawParameter); anything else it JSON-encodes. */
class Raw {
  constructor(readonly value: string) {}
}
const dart = (v: unknown) => (v instanceof Raw ? v.value : JSON.stringify(v));
/** Python's json.dumps of the flat lists and dicts these calls send: ", " and ": " separators. */
const python = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v, null, 1).replace(/\n\s*/g, " ").replace(/([[{]) /g, "$1").replace(/ ([\]}])/g, "$1"));

interface Context {
  t: TestRealm;
  channelId: number;
  messageId: number;
  /** Values earlier calls returned, by name. */
  saved: Record<string, unknown>;
}

interface ClientCall {
  client: string;
  as: UserName;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (c: Context) => string;
  encode: (v: unknown) => string;
  params: (c: Context) => Record<string, unknown>;
  /** What the client reads from the answer. */
  answer: Shape;
  /** Further requirements, and values to keep for later calls. */
  then?: (body: Record<string, unknown>, c: Context) => void;
}

const CALLS: ClientCall[] = [
  {
    client: "zulip-flutter lib/api/route/account.dart registerClientDevice (PushDeviceManager, every start at FL ≥ 468)",
    as: "hamlet",
    method: "POST",
    path: () => "/register_client_device",
    encode: dart,
    params: () => ({}),
    answer: { object: { device_id: "int" } },
    then: (body, c) => void (c.saved.deviceId = body.device_id),
  },
  {
    client: "zulip-flutter lib/api/route/notifications.dart registerPushDevice (key and token groups)",
    as: "hamlet",
    method: "POST",
    path: () => "/mobile_push/register",
    encode: dart,
    params: (c) => ({
      device_id: c.saved.deviceId,
      push_key_id: 2408,
      push_key: new Raw(newPushKey().pushKey),
      token_kind: new Raw("fcm"),
      token_id: new Raw(tokenIdFor("fcm-registration-token")),
      bouncer_public_key: new Raw("mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM="),
      encrypted_push_registration: new Raw("c2VhbGVkIGZvciB0aGUgYm91bmNlcg=="),
    }),
    answer: { object: {} },
  },
  {
    // Only the snapshot keys of these endpoints: the app's whole register profile (every parameter and
    // capability it sends) is the client start-up profile tests' business.
    client: "zulip-flutter lib/api/route/events.dart registerQueue → InitialSnapshot.fromJson (devices, saved_snippets, realm_enable_read_receipts)",
    as: "hamlet",
    method: "POST",
    path: () => "/register",
    encode: dart,
    params: () => ({ apply_markdown: true, client_gravatar: false, slim_presence: true, client_capabilities: { user_settings_object: true, empty_topic_name: true } }),
    answer: { object: { devices: { nullable: { map: CLIENT_DEVICE } }, saved_snippets: { nullable: { list: SAVED_SNIPPET } }, realm_enable_read_receipts: "bool" } },
    then: (body, c) => {
      const device = (body.devices as Record<string, Record<string, unknown>>)[String(c.saved.deviceId)];
      // PushDeviceManager compares these with its own key and token to decide whether to register again.
      assert.deepEqual([device.push_key_id, device.push_token_id], [2408, tokenIdFor("fcm-registration-token")]);
    },
  },
  {
    client: "zulip-flutter lib/api/route/saved_snippets.dart createSavedSnippet",
    as: "hamlet",
    method: "POST",
    path: () => "/saved_snippets",
    encode: dart,
    params: () => ({ title: new Raw("Greeting"), content: new Raw("Welcome, **friend**!") }),
    answer: { object: { saved_snippet_id: "int" } },
  },
  {
    client: "zulip-flutter lib/api/route/account.dart removeClientDevice (on logout, FL ≥ 470)",
    as: "hamlet",
    method: "POST",
    path: () => "/remove_client_device",
    encode: dart,
    params: (c) => ({ device_id: c.saved.deviceId }),
    answer: { object: {} },
  },
  {
    client: "zulip-terminal model.py _fetch_stream_email_from_endpoint (client.call_endpoint, GET, no parameters)",
    as: "hamlet",
    method: "GET",
    path: (c) => `/streams/${c.channelId}/email_address`,
    encode: python,
    params: () => ({}),
    answer: { object: { email: "string" } },
  },
  {
    client: "python-zulip-api Client.get_stream_email_address(stream_id)",
    as: "othello",
    method: "GET",
    path: (c) => `/streams/${c.channelId}/email_address`,
    encode: python,
    params: () => ({}),
    answer: { object: { email: "string" } },
  },
  {
    client: "python-zulip-api Client.update_storage({'storage': {...}}) from zulip_bots StateHandler.put (values are json.dumps text)",
    as: "bot",
    method: "PUT",
    path: () => "/bot_storage",
    encode: python,
    params: () => ({ storage: { number: "0", message_id: "null" } }),
    answer: { object: {} },
  },
  {
    client: "python-zulip-api Client.get_storage({'keys': [key]}) from zulip_bots StateHandler.get (reads response['storage'][key])",
    as: "bot",
    method: "GET",
    path: () => "/bot_storage",
    encode: python,
    params: () => ({ keys: ["number"] }),
    answer: { object: { storage: { object: { number: "string" } } } },
    then: (body) => assert.equal(JSON.parse((body.storage as Record<string, string>).number), 0),
  },
  {
    client: "python-zulip-api Client.get_storage() (every key)",
    as: "bot",
    method: "GET",
    path: () => "/bot_storage",
    encode: python,
    params: () => ({}),
    answer: { object: { storage: { map: "string" } } },
  },
  {
    client: "python-zulip-api Client.update_notification_settings({...}) (PATCH settings/notifications)",
    as: "hamlet",
    method: "PATCH",
    path: () => "/settings/notifications",
    encode: python,
    params: () => ({ enable_stream_push_notifications: true, enable_offline_push_notifications: false }),
    answer: { object: {} },
  },
  {
    // The app offers reporting once the snapshot names a moderation request channel (FL 331), with
    // the types register lists (FL 435), and hides muted users' messages (MutedUserItem: id).
    client: "zulip-flutter lib/api/route/events.dart registerQueue → InitialSnapshot.fromJson (realm_moderation_request_channel_id, server_report_message_types, muted_users)",
    as: "hamlet",
    method: "POST",
    path: () => "/register",
    encode: dart,
    params: () => ({ apply_markdown: true, client_gravatar: false, slim_presence: true, client_capabilities: { user_settings_object: true, empty_topic_name: true } }),
    answer: {
      object: {
        realm_moderation_request_channel_id: "int",
        server_report_message_types: { list: { object: { key: "string", name: "string" } } },
        muted_users: { list: { object: { id: "int" } } },
      },
    },
    then: (body, c) => assert.equal(body.realm_moderation_request_channel_id, c.saved.moderationChannelId),
  },
  {
    client: "zulip-flutter lib/api/route/messages.dart reportMessage (report_type and description as RawParameter)",
    as: "hamlet",
    method: "POST",
    path: (c) => `/messages/${c.messageId}/report`,
    encode: dart,
    params: () => ({ report_type: new Raw("other"), description: new Raw("Not what this channel is for.") }),
    answer: { object: {} },
  },
  {
    client: "Zulip's get-read-receipts (web app; GET /messages/{id}/read_receipts)",
    as: "hamlet",
    method: "GET",
    path: (c) => `/messages/${c.messageId}/read_receipts`,
    encode: python,
    params: () => ({}),
    answer: { object: { user_ids: { list: "int" } } },
  },
];

describe("the official clients' calls to the start-up endpoints", () => {
  let t: TestRealm;
  let bouncer: Bouncer;
  const context = {} as Context;
  before(async () => {
    bouncer = await startBouncer();
    t = await createTestRealm("sqlite", { pushBouncerUrl: bouncer.url, emailGatewayPattern: "%s@mail.example.com" });
    const channelId = await createChannel(t, "general", ["hamlet", "othello"]);
    const moderationChannelId = await createChannel(t, "moderation", ["iago"], { invite_only: true });
    assert.equal((await t.as("iago").patch("/realm", { moderation_request_channel_id: moderationChannelId })).status, 200);
    Object.assign(context, { t, channelId, messageId: await sendToChannel(t, "othello", "general", "start"), saved: { moderationChannelId } });
  });
  after(async () => {
    await t.close();
    await bouncer.stop();
  });

  for (const call of CALLS) {
    it(call.client, async () => {
      const fields = new URLSearchParams(Object.entries(call.params(context)).map(([k, v]) => [k, call.encode(v)])).toString();
      const user = t.users[call.as];
      const headers = { host: t.host, authorization: "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64") };
      const url = `/api/v1${call.path(context)}`;
      const res =
        call.method === "GET"
          ? await t.app.inject({ method: "GET", url: fields ? `${url}?${fields}` : url, headers })
          : await t.app.inject({ method: call.method, url, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, payload: fields });
      const body = res.json() as Record<string, unknown>;
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(body.result, "success");
      assert.deepEqual(problems(body, call.answer, "answer"), []);
      assert.equal(body.ignored_parameters_unsupported, undefined, "the server takes every parameter the client sends");
      call.then?.(body, context);
    });
  }

  it("encodes values the way each client does", () => {
    assert.equal(python({ storage: { a: "1" } }.storage), '{"a": "1"}');
    assert.equal(python(["x", "y"]), '["x", "y"]');
    assert.equal(dart(new Raw("raw")), "raw");
    assert.equal(dart(2408), "2408");
  });
});
