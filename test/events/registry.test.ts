/** Queue registry: delivery by user, idle collection, save/restore across a restart. */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { eventsJson } from "../../src/events/queue.js";
import { QueueRegistry } from "../../src/events/registry.js";

const baseOpts = { realmId: 1, eventTypes: null, applyMarkdown: true, clientGravatar: false, allPublicStreams: false, capabilities: {}, narrow: null, now: 1000 };

describe("QueueRegistry", () => {
  it("delivers only to the named users' queues, with sequential ids per queue", () => {
    const r = new QueueRegistry();
    const a = r.create({ ...baseOpts, userId: 1 });
    const b = r.create({ ...baseOpts, userId: 2 });
    r.deliver({ type: "x" }, [1]);
    r.deliver({ type: "y" }, [1, 2]);
    assert.deepEqual(a.pending().map((e) => [e.id, e.type]), [[0, "x"], [1, "y"]]);
    assert.deepEqual(b.pending().map((e) => [e.id, e.type]), [[0, "y"]]);
    a.prune(0);
    assert.deepEqual(a.pending().map((e) => e.id), [1]);
  });

  it("counts a narrowed queue as one taking messages, and filters messages by its narrow (a fuzz-found 500 at register)", () => {
    const r = new QueueRegistry();
    const q = r.create({ ...baseOpts, userId: 1, narrow: [{ operator: "channel", operand: "Denmark" }] });
    assert.equal(r.hasQueueFor(1, "message"), true);
    assert.deepEqual(r.messageQueueUserIds(), [1]);
    r.deliver({ type: "message", message: { type: "stream", display_recipient: "Verona", subject: "t" }, flags: [] }, [1]);
    r.deliver({ type: "message", message: { type: "stream", display_recipient: "Denmark", subject: "t" }, flags: [] }, [1]);
    assert.deepEqual(q.pending().map((e) => (e.message as { display_recipient: string }).display_recipient), ["Denmark"]);
    r.delete(q.id);
    assert.deepEqual(r.messageQueueUserIds(), []);
  });

  it("resolves a parked wait on delivery, and cancelWait answers it empty", async () => {
    const r = new QueueRegistry();
    const q = r.create({ ...baseOpts, userId: 1 });
    const w = q.wait();
    r.deliver({ type: "z" }, [1]);
    assert.equal((await w.promise)[0].event.type, "z");
    const w2 = q.wait();
    r.releaseWaiters();
    assert.deepEqual(await w2.promise, []);
  });

  it("collects idle queues but not ones with a parked poll", () => {
    const r = new QueueRegistry();
    const idle = r.create({ ...baseOpts, userId: 1 });
    const parked = r.create({ ...baseOpts, userId: 2 });
    parked.wait();
    assert.deepEqual(r.collectIdle(1000 + 601), [idle.id]);
    assert.equal(r.get(parked.id), parked);
    assert.equal(r.get(idle.id), undefined);
  });

  it("saves and restores queues with their pending events and id sequence", () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-queues-"));
    try {
      const path = join(dir, "queues.json");
      const before = new QueueRegistry();
      const q = before.create({ ...baseOpts, userId: 7, eventTypes: new Set(["message"]) });
      before.deliver({ type: "message", message: { id: 1 } }, [7]);
      before.save(path);
      const after = new QueueRegistry();
      assert.equal(after.load(path), 1);
      assert.equal(existsSync(path), false, "consumed: a later crash must not bring back rewound queues");
      const restored = after.get(q.id)!;
      assert.deepEqual(restored.pending().map((e) => e.id), [0]);
      after.deliver({ type: "message", message: { id: 2 } }, [7]);
      after.deliver({ type: "typing" }, [7]);
      assert.deepEqual(restored.pending().map((e) => e.id), [0, 1]);
      writeFileSync(path, "{not json");
      assert.equal(new QueueRegistry().load(path), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers parked polls after the publisher's own continuation, not inside the publish", async () => {
    const r = new QueueRegistry();
    const q = r.create({ ...baseOpts, userId: 1 });
    const w = q.wait();
    const order: string[] = [];
    void w.promise.then(() => order.push("poll answered"));
    r.deliver({ type: "z" }, [1]);
    // What the publisher does next (its HTTP answer), in microtasks, comes first.
    await Promise.resolve();
    order.push("publisher continued");
    await w.promise;
    assert.deepEqual(order, ["publisher continued", "poll answered"]);
  });

  it("gives queues of the same shape one shared event, and each its own id", () => {
    const r = new QueueRegistry();
    const a = r.create({ ...baseOpts, userId: 1 });
    const b = r.create({ ...baseOpts, userId: 2 });
    const raw = r.create({ ...baseOpts, userId: 3, applyMarkdown: false });
    a.push({ type: "other" });
    const message = { type: "message", message: { id: 9, content: "<p>hi</p>", subject: "t" }, raw_content: "hi", flags: [] };
    r.deliver(message, [1, 2, 3]);
    const [ea, eb, er] = [a, b, raw].map((q) => q.pendingEntries().at(-1)!);
    assert.equal(ea.event, eb.event, "one shaped event for both");
    assert.notEqual(ea.event, er.event);
    assert.deepEqual([ea.id, eb.id, er.id], [1, 0, 0]);
    assert.equal((er.event.message as { content: string }).content, "hi");
    assert.equal("raw_content" in ea.event, false);
  });

  it("serialises entries as the same JSON as the events a client receives", () => {
    const r = new QueueRegistry();
    const q = r.create({ ...baseOpts, userId: 1 });
    r.deliver({ type: "message", message: { id: 9, content: "<p>é \u2028</p>", subject: "" }, flags: ["read"] }, [1]);
    r.deliver({ type: "typing", op: "start" }, [1]);
    assert.deepEqual(JSON.parse(eventsJson(q.pendingEntries()).text), q.pending());
    assert.deepEqual(JSON.parse(eventsJson([]).text), []);
  });
});
