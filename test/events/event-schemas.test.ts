/**
 * Every event a broad sequence of actions delivers to clients (as GET /events returns it) must
 * match Zulip's OpenAPI event schema for its type and op (issue 5). Skips visibly when ../shared
 * is absent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { contract, eventViolations } from "../helpers/contract/validator.js";

const available = contract() !== null;

describe("delivered events match the OpenAPI event schemas", { skip: available ? false : "../shared/reference/zulip-openapi-current.yaml is absent" }, () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite");
  });
  after(() => t.close());

  it("channel creation, messages, typing, presence", async () => {
    const queues: Array<[UserName, string]> = [];
    for (const [who, capabilities] of [
      ["hamlet", {}],
      ["othello", { stream_typing_notifications: true }],
      ["iago", { stream_typing_notifications: true, simplified_presence_events: true }],
    ] as const) {
      const q = await t.as(who).post("/register", { client_capabilities: capabilities });
      queues.push([who, q.body.queue_id]);
    }
    const channel = await t.as("iago").post("/channels/create", { name: "Denmark", subscribers: [t.users.iago.id, t.users.hamlet.id, t.users.othello.id] });
    assert.equal(channel.status, 200);
    await t.as("hamlet").post("/messages", { type: "stream", to: "Denmark", topic: "t", content: "hello @**Iago**", queue_id: queues[0][1], local_id: "1" });
    await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.othello.id], content: "dm" });
    await t.as("hamlet").post("/typing", { op: "start", to: [t.users.othello.id] });
    await t.as("hamlet").post("/typing", { type: "channel", op: "stop", stream_id: channel.body.id, topic: "t" });
    await t.as("hamlet").post("/users/me/presence", { status: "active" });
    await t.deps.presence.flush();
    const delivered: Array<Record<string, unknown>> = [];
    for (const [who, queueId] of queues) {
      const res = await t.as(who).get("/events", { queue_id: queueId, dont_block: true });
      delivered.push(...res.body.events);
    }
    assert.deepEqual(eventViolations(delivered), []);
    const types = new Set(delivered.map((e) => e.type));
    for (const type of ["stream", "subscription", "message", "typing", "presence"]) assert.ok(types.has(type), type);
  });
});
