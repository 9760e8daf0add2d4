/**
 * A cluster worker's side of the IPC protocol (src/cluster/), against a stand-in for the channel
 * to the primary: events go out to the primary and come back to be delivered; flush waits for
 * its token; which users hold message queues is told to the primary and learnt from it (so
 * notifications see queues in other workers); queue ids name their worker.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IpcEventBus } from "../../src/cluster/ipc-bus.js";
import { QueueForwarder } from "../../src/cluster/queue-forwarding.js";
import { startWorkerLink } from "../../src/cluster/worker.js";
import { queueOwnerIndex, QueueRegistry } from "../../src/events/registry.js";
import { FakeChannel } from "../helpers/fake-ipc-channel.js";

const baseOpts = { realmId: 1, eventTypes: null, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, capabilities: {}, narrow: null, now: 1000 };

describe("cluster worker link", () => {
  it("names the worker in queue ids; single-process ids name none", () => {
    const worker = new QueueRegistry(3).create({ ...baseOpts, userId: 1 });
    assert.equal(queueOwnerIndex(worker.id), 3);
    assert.equal(queueOwnerIndex(new QueueRegistry().create({ ...baseOpts, userId: 1 }).id), null);
    assert.equal(queueOwnerIndex("garbage"), null);
  });

  it("publishes through the primary and delivers only what comes back", () => {
    const channel = new FakeChannel();
    const queues = new QueueRegistry(0);
    const bus = new IpcEventBus(channel, queues);
    const queue = queues.create({ ...baseOpts, userId: 7 });
    bus.publish({ type: "x" }, [7]);
    assert.equal(queue.pending().length, 0, "nothing is delivered before the primary sends it back");
    const sent = channel.sent[0];
    assert.equal(sent.parley, "publish");
    if (sent.parley !== "publish") return;
    channel.fromPrimary({ parley: "deliver", event: sent.event, userIds: sent.userIds, publishedAt: sent.publishedAt });
    assert.deepEqual(queue.pending().map((e) => e.type), ["x"]);
  });

  it("flush resolves when the primary returns its token", async () => {
    const channel = new FakeChannel();
    const bus = new IpcEventBus(channel, new QueueRegistry(0));
    let done = false;
    const flushed = bus.flush().then(() => (done = true));
    const sent = channel.sent.at(-1);
    assert.equal(sent?.parley, "flush");
    await Promise.resolve();
    assert.equal(done, false);
    if (sent?.parley === "flush") channel.fromPrimary({ parley: "flushed", token: sent.token });
    await flushed;
    assert.equal(done, true);
  });

  it("tells the primary about users' message queues, and learns other workers' for notifications", () => {
    const channel = new FakeChannel();
    const queues = new QueueRegistry(1);
    startWorkerLink(1, queues, channel);
    const typing = queues.create({ ...baseOpts, userId: 5, eventTypes: new Set(["typing"]) });
    assert.deepEqual(channel.sent, [], "a queue without message events does not count");
    const first = queues.create({ ...baseOpts, userId: 5 });
    const second = queues.create({ ...baseOpts, userId: 5 });
    assert.deepEqual(channel.sent, [{ parley: "message-queue-users", userIds: [5], present: true }]);
    queues.delete(first.id);
    assert.equal(channel.sent.length, 1, "still one left");
    queues.delete(second.id);
    queues.delete(typing.id);
    assert.deepEqual(channel.sent.at(-1), { parley: "message-queue-users", userIds: [5], present: false });

    assert.equal(queues.hasQueueFor(9, "message"), false);
    channel.fromPrimary({ parley: "remote-message-queue-users", worker: 0, userIds: [9], present: true, reset: true });
    assert.equal(queues.hasQueueFor(9, "message"), true);
    assert.equal(queues.hasQueueFor(9, "typing"), false, "only message queues are told");
    // Worker 0 died: the primary resets what it had.
    channel.fromPrimary({ parley: "remote-message-queue-users", worker: 0, userIds: [], present: false, reset: true });
    assert.equal(queues.hasQueueFor(9, "message"), false);
  });

  it("forwards only queues of other workers, and a worker that is not running has lost them", async () => {
    const forwarder = new QueueForwarder(0);
    const never = () => undefined;
    assert.equal(await forwarder.forward("w0-abc:1:def", "GET", {}, {}, never), "local");
    assert.equal(await forwarder.forward("abc:1:def", "GET", {}, {}, never), "local");
    assert.equal(await forwarder.forward("w1-abc:1:def", "GET", {}, {}, never), "lost");
    // The long-poll path relays to a port only for another worker's queue, and only while it runs.
    assert.equal(forwarder.ownerPort("w1-abc:1:def"), undefined);
    forwarder.setPorts({ 0: 4000, 1: 4001 });
    assert.equal(forwarder.ownerPort("w1-abc:1:def"), 4001);
    assert.equal(forwarder.ownerPort("w0-abc:1:def"), undefined);
    assert.equal(forwarder.ownerPort("abc:1:def"), undefined);
  });
});
