/**
 * Scheduled messages (Zulip's get/create/update/delete-scheduled-message; FL 173-184), on every
 * store: what is stored and shown, the checks of sending applied when scheduling, editing as
 * Zulip's edit_scheduled_message allows, the owner-only rule, register and events, and the answers
 * against Zulip's current OpenAPI document.
 * Delivery itself: scheduled-delivery.test.ts.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { toJsonSchema, type Json } from "../helpers/contract/document.js";
import { eventsOf, setRealmGroups, systemGroupId } from "../helpers/channels.js";
import { createChannel } from "../helpers/messages.js";
import { addUser, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const HOUR = 3600;

for (const kind of STORE_KINDS) {
  describe(`scheduled messages [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello", "iago", "polonius"]);
    });
    afterEach(() => t.close());

    const at = (seconds = HOUR) => t.clock.seconds + seconds;
    const schedule = async (params: Record<string, unknown>, who: "hamlet" | "othello" = "hamlet") => {
      const res = await t.as(who).post("/scheduled_messages", { scheduled_delivery_timestamp: at(), ...params });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.scheduled_message_id as number;
    };

    it("schedules channel and direct messages, listing them soonest first with Zulip's fields", async () => {
      t.published.length = 0;
      const later = await schedule({ type: "channel", to: verona, topic: "castle", content: "**Hello** there", scheduled_delivery_timestamp: at(2 * HOUR) });
      const sooner = await schedule({ type: "direct", to: [t.users.othello.id, t.users.cordelia.id], content: "psst" });
      const self = await schedule({ type: "private", to: [t.users.hamlet.id], content: "note", scheduled_delivery_timestamp: at(3 * HOUR) });
      const listed = (await t.as("hamlet").get("/scheduled_messages")).body;
      const channelMessage = {
        scheduled_message_id: later,
        type: "stream",
        to: verona,
        topic: "castle",
        content: "**Hello** there",
        rendered_content: "<p><strong>Hello</strong> there</p>",
        scheduled_delivery_timestamp: at(2 * HOUR),
        failed: false,
      };
      const direct = {
        scheduled_message_id: sooner,
        type: "private",
        to: [t.users.othello.id, t.users.cordelia.id].sort((a, b) => a - b),
        content: "psst",
        rendered_content: "<p>psst</p>",
        scheduled_delivery_timestamp: at(),
        failed: false,
      };
      const toSelf = { scheduled_message_id: self, type: "private", to: [t.users.hamlet.id], content: "note", rendered_content: "<p>note</p>", scheduled_delivery_timestamp: at(3 * HOUR), failed: false };
      assert.deepEqual(listed, { result: "success", msg: "", scheduled_messages: [direct, channelMessage, toSelf] });
      const added = eventsOf(t, "scheduled_messages", "add");
      assert.deepEqual(added.map((e) => e.event.scheduled_messages), [[channelMessage], [direct], [toSelf]]);
      assert.ok(added.every((e) => e.userIds.length === 1 && e.userIds[0] === t.users.hamlet.id));
      // Nothing was sent, and nobody else sees them.
      assert.equal(eventsOf(t, "message").length, 0);
      assert.deepEqual((await t.as("othello").get("/scheduled_messages")).body.scheduled_messages, []);
    });

    it("is in POST /register as scheduled_messages, the caller's own only", async () => {
      const id = await schedule({ type: "stream", to: verona, topic: "t", content: "mine" });
      await schedule({ type: "stream", to: verona, topic: "t", content: "theirs" }, "othello");
      const state = (await t.as("hamlet").post("/register", { fetch_event_types: ["scheduled_messages"] })).body;
      assert.deepEqual(state.scheduled_messages.map((m: { scheduled_message_id: number }) => m.scheduled_message_id), [id]);
      assert.deepEqual((await t.as("hamlet").post("/register", {})).body.scheduled_messages, state.scheduled_messages);
    });

    it("normalizes as sending does: trailing space, the '(no topic)' placeholder, over-long topics", async () => {
      await schedule({ type: "stream", to: verona, topic: "(no topic)", content: "general  \n\n" });
      await schedule({ type: "stream", to: [verona], topic: "x".repeat(70), content: "long topic" });
      const [first, second] = (await t.as("hamlet").get("/scheduled_messages")).body.scheduled_messages;
      assert.deepEqual([first.topic, first.content], ["", "general"]);
      assert.equal(second.topic, "x".repeat(57) + "...");
    });

    it("refuses what sending would refuse, with the send path's errors, and stores nothing", async () => {
      const secret = await createChannel(t, "secret", ["othello"], { invite_only: true });
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [{ type: "stream", to: verona, topic: "t", content: "  " }, "Message must not be empty"],
        [{ type: "stream", to: 999_999, topic: "t", content: "x" }, "Channel with ID '999999' does not exist", "STREAM_DOES_NOT_EXIST"],
        [{ type: "stream", to: secret, topic: "t", content: "x" }, "Channel with ID '" + secret + "' does not exist", "STREAM_DOES_NOT_EXIST"],
        [{ type: "direct", to: [999_999], content: "x" }, "Invalid user ID 999999"],
        [{ type: "direct", to: [t.users.othello.email], content: "x" }, "Recipient list may only contain user IDs"],
        [{ type: "direct", to: { user: 1 }, content: "x" }, "Invalid data type for recipients"],
        [{ type: "stream", to: [verona, verona], topic: "t", content: "x" }, "Invalid data type for channel ID"],
        [{ type: "stream", to: "Verona", topic: "t", content: "x" }, 'Argument "to" is not valid JSON.', "INVALID_JSON"],
        [{ type: "smoke", to: verona, topic: "t", content: "x" }, "Invalid type", "REQUEST_VARIABLE_INVALID"],
        [{ type: "stream", to: verona, topic: "t", content: "x", scheduled_delivery_timestamp: t.clock.seconds }, "Scheduled delivery time must be in the future."],
        [{ type: "stream", to: verona, topic: "t", content: "x", scheduled_delivery_timestamp: 1 }, "Scheduled delivery time must be in the future."],
        [{ type: "stream", to: verona, topic: "t", content: "x", scheduled_delivery_timestamp: 253_402_300_800 }, "scheduled_delivery_timestamp is too large", "REQUEST_VARIABLE_INVALID"],
        [{ type: "stream", to: verona, topic: "t", content: "x", scheduled_delivery_timestamp: "soon" }, "scheduled_delivery_timestamp is not an integer", "REQUEST_VARIABLE_INVALID"],
      ];
      for (const [params, msg, code] of cases) {
        const res = await t.as("hamlet").post("/scheduled_messages", { scheduled_delivery_timestamp: at(), ...params });
        assertError(res, msg, code ?? "BAD_REQUEST");
      }
      assertError(await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: verona, topic: "t" }), "Missing 'content' argument", "REQUEST_VARIABLE_MISSING");
      assertError(
        await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: verona, topic: "t", content: "x" }),
        "Missing 'scheduled_delivery_timestamp' argument",
        "REQUEST_VARIABLE_MISSING",
      );
      assert.deepEqual((await t.as("hamlet").get("/scheduled_messages")).body.scheduled_messages, []);
      assert.equal(eventsOf(t, "scheduled_messages").length, 0);
    });

    it("applies channel permissions, topic policies and wildcard-mention rules when scheduling", async () => {
      const announce = await createChannel(t, "announce", ["hamlet", "iago"], { can_send_message_group: await systemGroupId(t, "role:administrators") });
      assertError(
        await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: announce, topic: "t", content: "x", scheduled_delivery_timestamp: at() }),
        "You do not have permission to post in this channel.",
      );
      assert.equal((await t.as("iago").post("/scheduled_messages", { type: "stream", to: announce, topic: "t", content: "x", scheduled_delivery_timestamp: at() })).status, 200);

      assert.equal((await t.as("iago").patch(`/streams/${verona}`, { topics_policy: "disable_empty_topic" })).status, 200);
      assertError(
        await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: verona, topic: "", content: "x", scheduled_delivery_timestamp: at() }),
        "Sending messages to the general chat is not allowed in this channel.",
      );

      const crowd = await createChannel(t, "crowd", ["hamlet", "othello", "cordelia", "iago", "shiva", "polonius", "desdemona"]);
      const newcomers: number[] = [];
      for (let i = 0; i < 10; i++) newcomers.push((await addUser(t)).id);
      assert.equal((await t.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "crowd" }], principals: newcomers })).status, 200);
      await setRealmGroups(t, { can_mention_many_users_group_id: "role:administrators" });
      assertError(
        await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: crowd, topic: "t", content: "@**all** hear me", scheduled_delivery_timestamp: at() }),
        "You do not have permission to use channel wildcard mentions in this channel.",
        "STREAM_WILDCARD_MENTION_NOT_ALLOWED",
      );
    });

    it("edits as Zulip does: type needs to, a channel needs a topic, a topic alone is ignored for direct messages", async () => {
      const id = await schedule({ type: "stream", to: verona, topic: "first", content: "original" });
      t.published.length = 0;
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`), "Nothing to change");
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { type: "direct" }), "Recipient required when updating type of scheduled message.");
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { type: "channel", to: verona }), "Topic required when updating scheduled message type to channel.");
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: t.clock.seconds - 5 }), "Scheduled delivery time must be in the future.");
      assert.equal(t.published.length, 0);

      const show = async () => (await t.as("hamlet").get("/scheduled_messages")).body.scheduled_messages[0];
      assert.equal((await t.as("hamlet").patch(`/scheduled_messages/${id}`, { topic: "second" })).status, 200);
      assert.deepEqual([(await show()).topic, (await show()).content], ["second", "original"]);
      assert.equal((await t.as("hamlet").patch(`/scheduled_messages/${id}`, { type: "direct", to: [t.users.othello.id] })).status, 200);
      assert.deepEqual(await show(), {
        scheduled_message_id: id,
        type: "private",
        to: [t.users.othello.id],
        content: "original",
        rendered_content: "<p>original</p>",
        scheduled_delivery_timestamp: at(),
        failed: false,
      });
      assert.equal((await t.as("hamlet").patch(`/scheduled_messages/${id}`, { topic: "ignored" })).status, 200);
      assert.equal((await show()).topic, undefined);
      assert.equal((await t.as("hamlet").patch(`/scheduled_messages/${id}`, { type: "channel", to: verona, topic: "back", content: "*edited*", scheduled_delivery_timestamp: at(5 * HOUR) })).status, 200);
      const final = await show();
      assert.deepEqual(final, {
        scheduled_message_id: id,
        type: "stream",
        to: verona,
        topic: "back",
        content: "*edited*",
        rendered_content: "<p><em>edited</em></p>",
        scheduled_delivery_timestamp: at(5 * HOUR),
        failed: false,
      });
      const updates = eventsOf(t, "scheduled_messages", "update");
      assert.equal(updates.length, 4);
      assert.deepEqual(updates.at(-1)!.event, { type: "scheduled_messages", op: "update", scheduled_message: final });
      // An edit is checked as a send: a recipient the sender may not write to is refused, unchanged.
      assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { to: 999_999 }), "Channel with ID '999999' does not exist", "STREAM_DOES_NOT_EXIST");
      assert.deepEqual(await show(), final);
    });

    it("deletes, telling the owner's clients; another's or a missing one is 404 and untouched", async () => {
      const mine = await schedule({ type: "stream", to: verona, topic: "t", content: "mine" });
      const theirs = await schedule({ type: "stream", to: verona, topic: "t", content: "theirs" }, "othello");
      t.published.length = 0;
      for (const id of [theirs, 999_999]) {
        assertError(await t.as("hamlet").delete(`/scheduled_messages/${id}`), "Scheduled message does not exist", "BAD_REQUEST", 404);
        assertError(await t.as("hamlet").patch(`/scheduled_messages/${id}`, { content: "taken" }), "Scheduled message does not exist", "BAD_REQUEST", 404);
      }
      assert.equal(t.published.length, 0);
      assert.equal((await t.as("hamlet").delete(`/scheduled_messages/${mine}`)).status, 200);
      assert.deepEqual(eventsOf(t, "scheduled_messages", "remove").map((e) => [e.event, e.userIds]), [
        [{ type: "scheduled_messages", op: "remove", scheduled_message_id: mine }, [t.users.hamlet.id]],
      ]);
      assertError(await t.as("hamlet").delete(`/scheduled_messages/${mine}`), "Scheduled message does not exist", "BAD_REQUEST", 404);
      assert.equal((await t.as("othello").get("/scheduled_messages")).body.scheduled_messages[0].content, "theirs");
    });

    it("is open to every account, guests and bots included, within what each may send", async () => {
      const everyone = ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"] as const;
      await checkPermissions(everyone, (who) => t.as(who).post("/scheduled_messages", { type: "direct", to: [t.users[who].id], content: "x", scheduled_delivery_timestamp: at() }));
      await checkPermissions(everyone, (who) => t.as(who).get("/scheduled_messages"));
      // A guest schedules only where they may send: not to a channel they are not subscribed to.
      const other = await createChannel(t, "elsewhere", ["hamlet"]);
      assertError(
        await t.as("polonius").post("/scheduled_messages", { type: "stream", to: other, topic: "t", content: "x", scheduled_delivery_timestamp: at() }),
        `Channel with ID '${other}' does not exist`,
        "STREAM_DOES_NOT_EXIST",
      );
    });
  });
}

const CURRENT_OPENAPI = resolve(process.cwd(), "../shared/reference/zulip-openapi-current.yaml");

/** Validators of the current document's documented answers for one operation, by status. */
function documentedAnswers(path: string, method: string): Map<string, ValidateFunction> {
  const doc = toJsonSchema(parse(readFileSync(CURRENT_OPENAPI, "utf8"))) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi", components: doc.components });
  const responses = (((doc.paths as Json)[path] as Json)[method] as Json).responses as Record<string, Json>;
  const resolveRef = (node: Json): Json => (typeof node.$ref === "string" ? (node.$ref.split("/").slice(1).reduce<Json>((at, k) => at[k] as Json, doc) as Json) : node);
  // The document lists alternative error bodies as oneOf, though a body may fit several: any one will do.
  const alternatives = (schema: Json): Json => (schema.oneOf ? { anyOf: schema.oneOf } : schema);
  return new Map(
    Object.entries(responses).map(([status, r]) => [status, ajv.compile(alternatives(((resolveRef(r).content as Json)["application/json"] as Json).schema as Json))]),
  );
}

describe("scheduled message answers against Zulip's current OpenAPI", { skip: existsSync(CURRENT_OPENAPI) ? false : "../shared/reference/zulip-openapi-current.yaml is absent" }, () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite");
  });
  after(() => t.close());

  it("matches the documented success and error bodies exactly (no field outside the schema)", async () => {
    const verona = await createChannel(t, "Verona", ["hamlet"]);
    const check = (path: string, method: string, status: string, body: unknown) => {
      const validate = documentedAnswers(path, method).get(status)!;
      assert.ok(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`);
    };
    const created = await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: verona, topic: "t", content: "x", scheduled_delivery_timestamp: t.clock.seconds + 60 });
    check("/scheduled_messages", "post", "200", created.body);
    await t.as("hamlet").post("/scheduled_messages", { type: "direct", to: [t.users.othello.id], content: "y", scheduled_delivery_timestamp: t.clock.seconds + 90 });
    check("/scheduled_messages", "get", "200", (await t.as("hamlet").get("/scheduled_messages")).body);
    const id = created.body.scheduled_message_id;
    check("/scheduled_messages/{scheduled_message_id}", "patch", "200", (await t.as("hamlet").patch(`/scheduled_messages/${id}`, { content: "z" })).body);
    check("/scheduled_messages/{scheduled_message_id}", "patch", "404", (await t.as("hamlet").patch("/scheduled_messages/999999", { content: "z" })).body);
    check("/scheduled_messages", "post", "400", (await t.as("hamlet").post("/scheduled_messages", { type: "direct", to: [999_999], content: "x", scheduled_delivery_timestamp: t.clock.seconds + 60 })).body);
    check("/scheduled_messages", "post", "400", (await t.as("hamlet").post("/scheduled_messages", { type: "stream", to: 999_999, topic: "t", content: "x", scheduled_delivery_timestamp: t.clock.seconds + 60 })).body);
    check("/scheduled_messages/{scheduled_message_id}", "delete", "200", (await t.as("hamlet").delete(`/scheduled_messages/${id}`)).body);
    check("/scheduled_messages/{scheduled_message_id}", "delete", "404", (await t.as("hamlet").delete(`/scheduled_messages/${id}`)).body);
  });
});
