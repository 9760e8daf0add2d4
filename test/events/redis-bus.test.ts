/**
 * The Redis event bus (REDIS_URL set): flush() returns only once every event published before it
 * has reached this process's queues, which graceful shutdown relies on before saving the queues;
 * deployments sharing one Redis never see each other's events.
 * Skips visibly without REDIS_URL (CI sets it).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { testStoreUrls } from "../../src/config.js";
import { RedisEventBus } from "../../src/events/redis-bus.js";
import { QueueRegistry } from "../../src/events/registry.js";

const { redis } = testStoreUrls();
const baseOpts = { realmId: 1, eventTypes: null, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, capabilities: {}, narrow: null, now: 1000 };

describe("RedisEventBus", { skip: redis ? false : "needs REDIS_URL" }, () => {
  const registry = new QueueRegistry();
  const errors: unknown[] = [];
  const bus = new RedisEventBus(redis as string, "deployment-a", registry, (err) => errors.push(err));
  // Another deployment on the same Redis, with a user of the same id as one of ours.
  const otherRegistry = new QueueRegistry();
  const other = new RedisEventBus(redis as string, "deployment-b", otherRegistry, (err) => errors.push(err));
  after(() => Promise.all([bus.close(), other.close()]));
  before(() => Promise.all([bus.ready(5_000), other.ready(5_000)]));

  it("has every event published before flush() in the queues when flush() resolves", async () => {
    // User ids on many shards, so the events travel on different channels than the flush token.
    const userIds = [7_000_001, 7_000_002, 7_000_003, 7_000_070];
    const queues = userIds.map((userId) => registry.create({ ...baseOpts, userId }));
    await bus.whenSubscribed();
    for (let i = 0; i < 50; i++) bus.publish({ type: "test", n: i }, userIds);
    await bus.flush();
    for (const queue of queues) assert.deepEqual(queue.pending().map((e) => e.n), Array.from({ length: 50 }, (_, i) => i));
    assert.deepEqual(errors, []);
  });

  it("keeps deployments that share a Redis apart", async () => {
    const ours = registry.create({ ...baseOpts, userId: 42 });
    const theirs = otherRegistry.create({ ...baseOpts, userId: 42 });
    await Promise.all([bus.whenSubscribed(), other.whenSubscribed()]);
    other.publish({ type: "theirs" }, [42]);
    bus.publish({ type: "ours" }, [42]);
    await Promise.all([bus.flush(), other.flush()]);
    assert.deepEqual(ours.pending().map((e) => e.type), ["ours"]);
    assert.deepEqual(theirs.pending().map((e) => e.type), ["theirs"]);
  });
});
