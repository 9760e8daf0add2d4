/**
 * The scheduler's timer (scheduler/message-scheduler.ts), driven by hand with the test clock and
 * fake timers, on every store: it looks at start, sleeps until the next due time (not a busy
 * poll), is woken earlier by a newly scheduled message, sends in bounded batches, looks again at
 * least every maxSleepMs, and stops.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { MessageScheduler, type Timers } from "../../src/scheduler/message-scheduler.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";

class FakeTimers implements Timers {
  pending: Array<{ fn: () => void; ms: number }> = [];
  set(fn: () => void, ms: number): unknown {
    const timer = { fn, ms };
    this.pending.push(timer);
    return timer;
  }
  clear(handle: unknown): void {
    this.pending = this.pending.filter((t) => t !== handle);
  }
  /** The delay of the one armed timer. */
  get armed(): number {
    assert.equal(this.pending.length, 1, "exactly one timer is armed");
    return this.pending[0].ms;
  }
  fire(): void {
    const timer = this.pending.shift();
    assert.ok(timer, "a timer is armed");
    timer.fn();
  }
}

const MAX_SLEEP_MS = 60_000;

for (const kind of STORE_KINDS) {
  describe(`the message scheduler's timer [${kind}]`, () => {
    let t: TestRealm;
    let timers: FakeTimers;
    let scheduler: MessageScheduler;
    let verona: number;
    const errors: unknown[] = [];
    beforeEach(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello"]);
      timers = new FakeTimers();
      scheduler = new MessageScheduler(t.deps, { timers, maxSleepMs: MAX_SLEEP_MS, batchSize: 2, onError: (err) => errors.push(err) });
      t.deps.scheduler = scheduler;
    });
    afterEach(async () => {
      await scheduler.stop();
      await t.close();
      assert.deepEqual(errors, []);
    });

    const schedule = async (inSeconds: number, content: string) => {
      const res = await t.as("hamlet").post("/scheduled_messages", {
        type: "stream",
        to: verona,
        topic: "timer",
        content,
        scheduled_delivery_timestamp: t.clock.seconds + inSeconds,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const round = async () => {
      timers.fire();
      await scheduler.idle();
    };
    /** The messages sent since the events were cleared, once each (one event per flag set). */
    const sent = () => [...new Map(eventsOf(t, "message").map((e) => [(e.event.message as { id: number }).id, (e.event.message as { content: string }).content])).values()];

    it("looks at start, then sleeps until the next due time, woken earlier by new messages", async () => {
      scheduler.start();
      assert.equal(timers.armed, 0, "the first look is at once");
      await round();
      assert.equal(timers.armed, MAX_SLEEP_MS, "nothing due: looks again after the longest sleep");

      await schedule(30, "first");
      assert.equal(timers.armed, 30_000, "woken for the new message's time");
      await schedule(45, "second");
      assert.equal(timers.armed, 30_000, "a later message leaves the timer as it is");
      await schedule(10 * 24 * 3600, "much later");
      assert.equal(timers.armed, 30_000);

      t.clock.seconds += 30;
      t.published.length = 0;
      await round();
      assert.deepEqual(sent(), ["<p>first</p>"]);
      assert.equal(timers.armed, 15_000, "then sleeps until the next one");
      t.clock.seconds += 15;
      await round();
      assert.deepEqual(sent(), ["<p>first</p>", "<p>second</p>"]);
      assert.equal(timers.armed, MAX_SLEEP_MS, "a far-off message: never longer than the longest sleep");
    });

    it("sends a crowd of due messages in batches, giving the event loop a turn between them", async () => {
      for (const n of [1, 2, 3, 4, 5]) await schedule(60, `batch ${n}`);
      scheduler.start();
      t.clock.seconds += 60;
      t.published.length = 0;
      await round();
      assert.equal(sent().length, 2);
      assert.equal(timers.armed, 0, "more are due: the next batch comes at once");
      await round();
      await round();
      assert.equal(sent().length, 5);
      assert.equal(timers.armed, MAX_SLEEP_MS);
    });

    it("sends at start what fell due while no server ran", async () => {
      await schedule(60, "overdue");
      t.clock.seconds += 120;
      t.published.length = 0;
      scheduler.start();
      await round();
      assert.equal(sent().length, 1);
    });

    it("looks again shortly, not at once, while another process holds a due row", { skip: kind === "sqlite" ? "row locks held by another transaction need PostgreSQL" : false }, async () => {
      await schedule(60, "held elsewhere");
      t.clock.seconds += 60;
      scheduler.start();
      t.published.length = 0;
      // Another process is in the middle of sending it: its transaction holds the row.
      await t.deps.store.db.transaction().execute(async (other) => {
        await other.selectFrom("scheduled_messages").select("id").forUpdate().execute();
        await round();
        assert.equal(sent().length, 0);
        assert.equal(timers.armed, 1000);
      });
      await round();
      assert.deepEqual(sent(), ["<p>held elsewhere</p>"]);
    });

    it("stops: no timer is left, and wakes after the stop do nothing", async () => {
      scheduler.start();
      await round();
      await scheduler.stop();
      assert.equal(timers.pending.length, 0);
      await schedule(30, "after the stop");
      assert.equal(timers.pending.length, 0);
    });
  });
}
