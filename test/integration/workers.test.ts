/**
 * WORKERS (issue 21, items 1 and 5): one server of two worker processes on one port, on a real
 * store, driven over loopback. Requests are forced to each worker through its forwarding port
 * (the same app on 127.0.0.1, which its "worker ready" log line names), so every path is taken
 * whatever the kernel's choice of worker for a connection:
 * - a queue registered on one worker is polled and deleted through the other (forwarded);
 * - a message sent through one worker reaches a long-poll parked on the other;
 * - writes sent through both workers at once all land (SQLite: one writer at a time, by turns);
 * - a killed worker is started again by the primary, and its clients get BAD_EVENT_QUEUE_ID once
 *   and register again;
 * - scheduled messages are sent once each while both workers deliver;
 * - WORKERS=1 is one process, as before.
 * SQLite with the primary's bus always; PostgreSQL too when TEST_DATABASE_URL is set (with the
 * Redis bus when REDIS_URL is set).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiClient, eventually, startServer, useCrashWorld, type Account, type CrashWorld } from "../helpers/server-process.js";
import { STORE_KINDS, type StoreKind } from "../helpers/stores.js";

interface WorkerLine {
  worker: number;
  pid: number;
  forward_port: number;
}

/** The "worker ready" lines printed so far, latest per worker. */
function readyWorkers(stdout: string): Map<number, WorkerLine> {
  const workers = new Map<number, WorkerLine>();
  for (const line of stdout.split("\n")) {
    if (!line.includes('"worker ready"')) continue;
    const parsed = JSON.parse(line) as WorkerLine;
    workers.set(parsed.worker, parsed);
  }
  return workers;
}

async function startWorkers(world: CrashWorld, kind: StoreKind, workers: number) {
  // SQLite runs the bus through the primary even where the environment names a Redis.
  const env = { ...world.env, WORKERS: String(workers), LOG_LEVEL: "info", ...(kind === "sqlite" ? { REDIS_URL: "" } : {}) };
  world.server = await startServer(world.port, env, { captureStdout: true });
  const server = world.server;
  if (workers > 1) await eventually("every worker is ready", () => readyWorkers(server.stdout()).size === workers, STARTUP_DEADLINE_MS);
  return server;
}

/** A worker starts in seconds; a machine shared by many test runs may take minutes (a deadline for a hang only). */
const STARTUP_DEADLINE_MS = 240_000;

const client = (port: number, account: Account) => new ApiClient(port, account.email, account.api_key);

for (const kind of STORE_KINDS) {
  describe(`two workers on one port (${kind})`, () => {
    const world = useCrashWorld(kind, "parley-workers-");
    let ports: Map<number, WorkerLine>;
    let channelId: number;

    it("starts a primary and two workers; queue ids name their worker", async () => {
      const server = await startWorkers(world, kind, 2);
      ports = readyWorkers(server.stdout());
      assert.deepEqual([...ports.keys()].sort(), [0, 1]);
      assert.notEqual(ports.get(0)!.forward_port, ports.get(1)!.forward_port);
      const owner = client(ports.get(0)!.forward_port, world.owner);
      const created = await owner.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "both" }], principals: [world.owner.user_id, world.member.user_id] });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const channels = await owner.call("GET", "/streams");
      channelId = (channels.body.streams as Array<{ name: string; stream_id: number }>).find((c) => c.name === "both")!.stream_id;
      for (const [index, line] of ports) {
        const reg = await client(line.forward_port, world.member).call("POST", "/register", { event_types: ["message"] });
        assert.equal(reg.status, 200, JSON.stringify(reg.body));
        assert.match(reg.body.queue_id as string, new RegExp(`^w${index}-`));
      }
    });

    it("polls and deletes a queue through the worker that does not hold it", async () => {
      const onW0 = client(ports.get(0)!.forward_port, world.member);
      const onW1 = client(ports.get(1)!.forward_port, world.member);
      const reg = await onW0.call("POST", "/register", { event_types: ["message"] });
      const queueId = reg.body.queue_id as string;
      // Parked on worker 0 through worker 1, then woken by a message sent through worker 1.
      const poll = onW1.call("GET", "/events", { queue_id: queueId, last_event_id: reg.body.last_event_id });
      const sent = await client(ports.get(1)!.forward_port, world.owner).call("POST", "/messages", { type: "stream", to: channelId, topic: "forwarded", content: "through the other worker" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const got = await poll;
      assert.equal(got.status, 200, JSON.stringify(got.body));
      assert.equal(got.body.queue_id, queueId);
      const ids = (got.body.events as Array<{ type: string; id: number; message?: { id: number } }>).filter((e) => e.type === "message").map((e) => e.message?.id);
      assert.deepEqual(ids, [sent.body.id]);
      // The same queue answers through its own worker, and again through the other one.
      const again = await onW0.call("GET", "/events", { queue_id: queueId, last_event_id: got.body.events.at(-1).id, dont_block: true });
      assert.deepEqual(again.body.events, []);
      const deleted = await onW1.call("DELETE", "/events", { queue_id: queueId });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      const gone = await onW0.call("GET", "/events", { queue_id: queueId, dont_block: true });
      assert.equal(gone.body.code, "BAD_EVENT_QUEUE_ID");
      // Another user's queue is refused through the forwarder as at home.
      const foreign = await client(ports.get(1)!.forward_port, world.owner).call("GET", "/events", { queue_id: (await onW0.call("POST", "/register", {})).body.queue_id, dont_block: true });
      assert.equal(foreign.body.code, "BAD_EVENT_QUEUE_ID");
    });

    it("delivers a message sent through one worker to queues held by either", async () => {
      const queues = [];
      for (const index of [0, 1]) {
        const reg = await client(ports.get(index)!.forward_port, world.member).call("POST", "/register", { event_types: ["message"] });
        queues.push({ index, id: reg.body.queue_id as string, last: reg.body.last_event_id as number });
      }
      // Each parked at home, then one message through worker 0 and one through worker 1.
      const polls = queues.map((q) => client(ports.get(q.index)!.forward_port, world.member).call("GET", "/events", { queue_id: q.id, last_event_id: q.last }));
      const first = await client(ports.get(0)!.forward_port, world.owner).call("POST", "/messages", { type: "direct", to: [world.member.user_id], content: "from worker 0" });
      for (const poll of await Promise.all(polls)) {
        assert.deepEqual((poll.body.events as Array<{ message: { id: number } }>).map((e) => e.message.id), [first.body.id]);
      }
      const second = await client(ports.get(1)!.forward_port, world.owner).call("POST", "/messages", { type: "direct", to: [world.member.user_id], content: "from worker 1" });
      for (const q of queues) {
        await eventually(`the message reaches the queue on worker ${q.index}`, async () => {
          const res = await client(ports.get(1 - q.index)!.forward_port, world.member).call("GET", "/events", { queue_id: q.id, last_event_id: q.last, dont_block: true });
          return (res.body.events as Array<{ message: { id: number } }>).some((e) => e.message.id === second.body.id);
        });
      }
    });

    it("writes through both workers at once, one at a time, each worker answering meanwhile", async () => {
      const sends = Array.from({ length: 24 }, (_, i) =>
        client(ports.get(i % 2)!.forward_port, world.owner).call("POST", "/messages", { type: "stream", to: channelId, topic: "both at once", content: `concurrent ${i}` }),
      );
      // Reads keep being answered on both while the writes queue for their turns.
      const reads = [0, 1].map((index) => client(ports.get(index)!.forward_port, world.member).call("GET", "/users/me"));
      const sent = await Promise.all(sends);
      for (const res of sent) assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(new Set(sent.map((r) => r.body.id)).size, sends.length, "every message stored once");
      for (const res of await Promise.all(reads)) assert.equal(res.status, 200);
      assert.doesNotMatch(world.server!.stdout(), /database is locked/);
      if (kind === "sqlite") {
        // Each worker's transactions waited for their turns (cluster/write-gate.ts).
        for (const index of [0, 1]) {
          const metrics = await (await fetch(`http://127.0.0.1:${ports.get(index)!.forward_port}/metrics`)).text();
          const count = Number(/^parley_sqlite_write_turn_wait_seconds_count (\d+)/m.exec(metrics)?.[1] ?? 0);
          assert.ok(count >= sends.length / 2, `worker ${index}: ${count} turns`);
        }
      }
    });

    it("sends each scheduled message once while both workers deliver", async () => {
      const due = Math.floor(Date.now() / 1000) + 3;
      const contents = Array.from({ length: 12 }, (_, i) => `scheduled ${i}`);
      for (const [i, content] of contents.entries()) {
        const res = await client(ports.get(i % 2)!.forward_port, world.owner).call("POST", "/scheduled_messages", {
          type: "stream", to: channelId, topic: "race", content, scheduled_delivery_timestamp: due,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      const owner = client(world.port, world.owner);
      await eventually("every scheduled message is sent", async () => (await owner.call("GET", "/scheduled_messages")).body.scheduled_messages.length === 0);
      const narrow = [{ operator: "channel", operand: channelId }, { operator: "topic", operand: "race" }];
      const got = await owner.call("GET", "/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow, apply_markdown: false });
      assert.deepEqual((got.body.messages as Array<{ content: string }>).map((m) => m.content).sort(), [...contents].sort(), "each once, none twice");
    });

    it("restarts a killed worker; its clients get BAD_EVENT_QUEUE_ID once and register again", async () => {
      const server = world.server!;
      const victim = ports.get(1)!;
      const reg = await client(victim.forward_port, world.member).call("POST", "/register", { event_types: ["message"] });
      const queueId = reg.body.queue_id as string;
      process.kill(victim.pid, "SIGKILL");
      await eventually("the primary starts worker 1 again", () => (readyWorkers(server.stdout()).get(1)?.pid ?? victim.pid) !== victim.pid, STARTUP_DEADLINE_MS);
      ports = readyWorkers(server.stdout());
      for (const line of ports.values()) {
        const lost = await client(line.forward_port, world.member).call("GET", "/events", { queue_id: queueId, dont_block: true });
        assert.equal(lost.body.code, "BAD_EVENT_QUEUE_ID", JSON.stringify(lost.body));
      }
      // Registering again, through the shared port (whichever worker takes it), works as ever.
      const shared = client(world.port, world.member);
      const again = await shared.call("POST", "/register", { event_types: ["message"] });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      const sent = await shared.call("POST", "/messages", { type: "stream", to: channelId, topic: "after", content: "after the restart" });
      const got = await shared.call("GET", "/events", { queue_id: again.body.queue_id, last_event_id: again.body.last_event_id });
      assert.deepEqual((got.body.events as Array<{ message: { id: number } }>).map((e) => e.message.id), [sent.body.id]);
      const stopped = await server.stop("SIGTERM");
      assert.equal(stopped.code, 0);
      world.server = null;
    });

    it("WORKERS=1 is one process, as before", async () => {
      await world.server?.stop("SIGKILL");
      const server = await startWorkers(world, kind, 1);
      assert.doesNotMatch(server.stdout(), /worker processes|worker ready/);
      const member = client(world.port, world.member);
      const reg = await member.call("POST", "/register", { event_types: ["message"] });
      assert.doesNotMatch(reg.body.queue_id as string, /^w\d+-/);
      const sent = await client(world.port, world.owner).call("POST", "/messages", { type: "direct", to: [world.member.user_id], content: "one process" });
      const got = await member.call("GET", "/events", { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id });
      assert.deepEqual((got.body.events as Array<{ message: { id: number } }>).map((e) => e.message.id), [sent.body.id]);
      assert.equal((await server.stop("SIGTERM")).code, 0);
      world.server = null;
    });
  });
}
