/**
 * A plain long-poll for a queue another cluster worker holds is relayed to that worker before
 * Fastify (src/http/forwarded-poll.ts, issue 21). Two apps on one store stand for two workers:
 * "the owner" holds the queues; "the relay" holds none and names the owner's port for them. What
 * must hold: the owner's answer comes back as it is (status, body, headers, one request id), both
 * apps skip Fastify's route, the owner does the checking (a bad key is its 401), and a poll whose
 * owner cannot be reached (it hangs up) goes to the relay's route, which answers as before.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import type { AppDeps, QueueOwners } from "../../src/deps.js";
import { createTestRealm, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

for (const kind of STORE_KINDS) {
  describe(`a poll for another worker's queue is relayed to it before Fastify [${kind}]`, () => {
    let r: TestRealm;
    let owner: FastifyInstance;
    let relay: FastifyInstance;
    let ownerPort: number;
    let relayPort: number;
    /** The port the relay names for every queue: the owner's, or a closed one. */
    let named = 0;
    const routed = { owner: 0, relay: 0 };
    const lines: Array<Record<string, unknown>> = [];

    const logTo = (who: string) =>
      new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split("\n").filter(Boolean)) lines.push({ ...(JSON.parse(line) as Record<string, unknown>), who });
          done();
        },
      });

    async function listen(deps: AppDeps, who: "owner" | "relay"): Promise<[FastifyInstance, number]> {
      const app = await buildApp(deps, { logger: { level: "info", stream: logTo(who) } });
      app.addHook("onRequest", (request, _reply, done) => {
        if (request.url.startsWith("/api/v1/events")) routed[who]++;
        done();
      });
      await app.listen({ port: 0, host: "127.0.0.1" });
      return [app, (app.server.address() as AddressInfo).port];
    }

    before(async () => {
      r = await createTestRealm(kind);
      [owner, ownerPort] = await listen(r.deps, "owner");
      named = ownerPort;
      // The relay holds no queue; the route's own forwarding finds the owner gone ("lost").
      const owners: QueueOwners = { ownerPort: () => named, forward: async () => "lost" };
      const queues = Object.assign(Object.create(r.deps.queues) as AppDeps["queues"], { get: () => undefined });
      [relay, relayPort] = await listen({ ...r.deps, queues, queueOwners: owners }, "relay");
    });
    after(async () => {
      await relay?.close();
      await owner?.close();
      await r?.close();
    });

    const auth = (user: TestUser, key = user.apiKey) => "Basic " + Buffer.from(`${user.email}:${key}`).toString("base64");

    function poll(port: number, query: string, headers: Record<string, string>): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const req = request(`http://127.0.0.1:${port}/api/v1/events?${query}`, { headers: { host: r.host, ...headers } }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown>, headers: res.headers }));
        });
        req.on("error", reject);
        req.end();
      });
    }

    async function register(user: TestUser): Promise<string> {
      const res = await r.as(user).post("/register", { event_types: ["message"] });
      assert.equal(res.status, 200);
      return encodeURIComponent(res.body.queue_id as string);
    }

    it("answers with the owner's answer, under one request id, neither app going through Fastify's route", async () => {
      const queue = await register(r.users.hamlet);
      const sent = await r.as("iago").post("/messages", { type: "direct", to: [r.users.hamlet.id], content: "relayed" });
      assert.equal(sent.status, 200);
      const before = { ...routed };
      const relayed = await poll(relayPort, `queue_id=${queue}&last_event_id=-1&dont_block=true`, { authorization: auth(r.users.hamlet), "x-request-id": "relay-7" });
      assert.equal(relayed.status, 200, JSON.stringify(relayed.body));
      assert.deepEqual((relayed.body.events as Array<{ message: { id: number } }>).map((e) => e.message.id), [sent.body.id]);
      assert.equal(relayed.headers["x-request-id"], "relay-7");
      assert.equal(relayed.headers["x-content-type-options"], "nosniff", "the owner's security headers");
      assert.deepEqual(routed, before, "both answered before Fastify");
      // The same answer as the owner gives directly (the poll is repeated: nothing new since).
      const direct = await poll(ownerPort, `queue_id=${queue}&last_event_id=${(relayed.body.events as Array<{ id: number }>).at(-1)!.id}&dont_block=true`, { authorization: auth(r.users.hamlet) });
      const again = await poll(relayPort, `queue_id=${queue}&last_event_id=${(relayed.body.events as Array<{ id: number }>).at(-1)!.id}&dont_block=true`, { authorization: auth(r.users.hamlet) });
      assert.deepEqual(again.body, direct.body);
      // One line each, under the same id: the owner's names the user, the relay's does not.
      const traced = lines.filter((l) => l.reqId === "relay-7" && l.route === "/api/v1/events");
      assert.deepEqual(traced.map((l) => l.who).sort(), ["owner", "relay"]);
      assert.equal(traced.find((l) => l.who === "owner")!.user_id, r.users.hamlet.id);
      assert.equal(traced.find((l) => l.who === "relay")!.user_id, undefined);
      assert.ok(traced.every((l) => l.status === 200));
    });

    it("leaves the checking to the owner: a wrong key is the owner's 401, another user's queue its BAD_EVENT_QUEUE_ID", async () => {
      const queue = await register(r.users.hamlet);
      const wrongKey = await poll(relayPort, `queue_id=${queue}&dont_block=true`, { authorization: auth(r.users.hamlet, "x".repeat(32)) });
      assert.equal(wrongKey.status, 401);
      assert.equal(wrongKey.body.msg, "Invalid API key");
      assert.match(String(wrongKey.headers["www-authenticate"]), /Basic/);
      const foreign = await poll(relayPort, `queue_id=${queue}&dont_block=true`, { authorization: auth(r.users.othello) });
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, "BAD_EVENT_QUEUE_ID");
    });

    it("hands a poll whose owner cannot be reached to the relay's route, which answers as before", async () => {
      const queue = await register(r.users.hamlet);
      // An owner that hangs up without answering, as one stopping since the primary's last table does.
      const hangingUp = createNetServer((socket) => socket.destroy());
      const closed = await new Promise<number>((resolve) => hangingUp.listen(0, "127.0.0.1", () => resolve((hangingUp.address() as AddressInfo).port)));
      named = closed;
      try {
        const before = routed.relay;
        const lost = await poll(relayPort, `queue_id=${queue}&dont_block=true`, { authorization: auth(r.users.hamlet) });
        assert.equal(lost.status, 400, JSON.stringify(lost.body));
        assert.equal(lost.body.code, "BAD_EVENT_QUEUE_ID");
        assert.equal(routed.relay, before + 1, "through the relay's route");
        // Without valid credentials the route refuses before anything about queues.
        const anonymous = await poll(relayPort, `queue_id=${queue}&dont_block=true`, {});
        assert.equal(anonymous.status, 401);
      } finally {
        named = ownerPort;
        hangingUp.close();
      }
    });
  });
}
