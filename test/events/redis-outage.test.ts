/**
 * The Redis bus through a Redis outage and a restart (issue 18, item 4), on a redis-server of the
 * test's own that it kills and starts again:
 * - when Redis goes away, every queue of the process is dropped (a parked poll learns it), the bus
 *   says it is unavailable, publishing neither throws nor waits, whenSubscribed refuses at once,
 *   and the outage is reported once; when Redis is back, the bus recovers and reports it once;
 * - queues saved by a process and restored by the next one receive what other processes published
 *   in between, each event once, in order.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { RedisEventBus } from "../../src/events/redis-bus.js";
import { QueueRegistry } from "../../src/events/registry.js";
import { HAS_REDIS_SERVER, PrivateRedis } from "../helpers/private-redis.js";

const baseOpts = { realmId: 1, eventTypes: null, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, capabilities: {}, narrow: null, now: 1000 };

/** Waits (briefly, by polling state, not by timing) for a condition the bus reaches asynchronously. */
async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

describe("the Redis bus through an outage", { skip: HAS_REDIS_SERVER ? false : "needs redis-server" }, () => {
  let redis: PrivateRedis;
  before(async () => {
    redis = await PrivateRedis.start();
  });
  after(() => redis.down());

  it("drops the queues once when Redis goes, refuses quickly meanwhile, and recovers once when it is back", async () => {
    const registry = new QueueRegistry();
    const reports: Array<[boolean, string | null, number]> = [];
    const bus = new RedisEventBus(redis.url, "outage", registry, (err) => assert.fail(String(err)), {
      onAvailability: (available, reason, discarded) => reports.push([available, reason, discarded]),
    });
    try {
      await bus.ready(5_000);
      const queue = registry.create({ ...baseOpts, userId: 5 });
      await bus.whenSubscribed();
      const parked = queue.wait();
      assert.equal(bus.unavailable(), null);

      await redis.down();
      assert.deepEqual(await parked.promise, [], "the parked poll is answered");
      assert.equal(queue.discarded, true, "…and its queue is gone, so the poll reports BAD_EVENT_QUEUE_ID");
      assert.equal(registry.size, 0);
      assert.match(bus.unavailable() ?? "", /connection to Redis was lost/);
      bus.publish({ type: "lost" }, [5]);
      await assert.rejects(bus.whenSubscribed(), (err: { status?: number }) => err.status === 503);
      await assert.rejects(bus.ping(), /lost/);
      assert.equal(reports.length, 1, "the outage is reported once");
      assert.equal(reports[0][0], false);
      assert.equal(reports[0][2], 1, "…with the number of queues dropped");

      await redis.up();
      await until("the bus is back", () => bus.unavailable() === null);
      assert.deepEqual(reports.map((r) => r[0]), [false, true], "…and its end once");
      const again = registry.create({ ...baseOpts, userId: 5 });
      await bus.whenSubscribed();
      bus.publish({ type: "after" }, [5]);
      await bus.flush();
      assert.deepEqual(again.pending().map((e) => e.type), ["after"]);
    } finally {
      await bus.close();
    }
  });

  it("catches restored queues up with what other processes published while none held them", async () => {
    const users = [11, 12, 75];
    const first = new QueueRegistry();
    const bus1 = new RedisEventBus(redis.url, "restart", first, (err) => assert.fail(String(err)));
    const other = new RedisEventBus(redis.url, "restart", new QueueRegistry(), (err) => assert.fail(String(err)));
    await Promise.all([bus1.ready(5_000), other.ready(5_000)]);
    const queues = users.map((userId) => first.create({ ...baseOpts, userId }));
    await bus1.whenSubscribed();
    other.publish({ type: "before", n: 0 }, users);
    await other.flush();
    await until("the first event arrived", () => queues.every((q) => q.pending().length === 1));
    // Shutdown as main.ts does it: flush, save with the bus's positions, close.
    await bus1.flush();
    const saved = JSON.parse(JSON.stringify({ queues: queues.map((q) => q.toJSON()), busState: await bus1.savedState() }));
    await bus1.close();

    for (let n = 1; n <= 5; n++) other.publish({ type: "between", n }, users);
    await other.flush();

    const second = new QueueRegistry();
    const reports: string[] = [];
    const bus2 = new RedisEventBus(redis.url, "restart", second, (err) => assert.fail(String(err)), { onRestoreDropped: (reason) => reports.push(reason) });
    try {
      await bus2.ready(5_000);
      const path = join(tmpdir(), `parley-restore-${process.pid}.json`);
      writeFileSync(path, JSON.stringify({ processTag: "x", ...saved }));
      let state: unknown = null;
      assert.equal(second.load(path, (s) => (state = s)), users.length);
      await bus2.restore(state);
      other.publish({ type: "after", n: 6 }, users);
      await other.flush();
      await until("the live event arrived", () => queues.every((q) => second.get(q.id)?.pending().length === 7));
      assert.deepEqual(reports, []);
      for (const q of queues) {
        const restored = second.get(q.id)!;
        assert.deepEqual(restored.pending().map((e) => `${e.type}${e.n}`), ["before0", "between1", "between2", "between3", "between4", "between5", "after6"]);
      }
    } finally {
      await Promise.all([bus2.close(), other.close()]);
    }
  });

  it("drops restored queues that were saved without positions, saying why", async () => {
    const registry = new QueueRegistry();
    const reports: Array<[string, number]> = [];
    const bus = new RedisEventBus(redis.url, "nopos", registry, (err) => assert.fail(String(err)), { onRestoreDropped: (reason, n) => reports.push([reason, n]) });
    try {
      await bus.ready(5_000);
      registry.create({ ...baseOpts, userId: 3 });
      await bus.restore(null);
      assert.equal(registry.size, 0);
      assert.equal(reports.length, 1);
      assert.match(reports[0][0], /without their event positions/);
    } finally {
      await bus.close();
    }
  });
});
