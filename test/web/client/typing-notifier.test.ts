/**
 * The compose box's typing notifications, spec 4.1's client protocol (web/src/state/typing-notifier.ts):
 * start once, resend start every started-wait period while typing, stop after the stopped-wait
 * period of inactivity, on clearing, and when the recipient changes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TypingNotifier, type Timers, type TypingTarget } from "../../../web/src/state/typing-notifier";

const PERIODS = { startedWaitMs: 10_000, stoppedWaitMs: 5_000, startedExpiryMs: 15_000 };
const TOPIC: TypingTarget = { type: "stream", streamId: 7, topic: "lunch" };
const DM: TypingTarget = { type: "direct", to: [9, 8] };

/** A clock and timers the test moves by hand. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (fn, ms) => (pending.set(++seq, { at: now + ms, fn }), seq),
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= now && pending.delete(id)) t.fn();
    }
  };
  return { timers, advance };
}

function setup() {
  const sent: Array<[string, TypingTarget]> = [];
  const clock = fakeTimers();
  const notifier = new TypingNotifier((op, target) => sent.push([op, target]), () => PERIODS, clock.timers);
  return { sent, notifier, advance: clock.advance };
}

describe("typing notifier (spec 4.1)", () => {
  it("sends start on the first keystroke only, then again after the started-wait period", () => {
    const { sent, notifier, advance } = setup();
    notifier.onInput(TOPIC);
    for (let i = 0; i < 4; i++) {
      advance(2_000); // keeps typing, never idle for the stopped-wait period
      notifier.onInput(TOPIC);
    }
    assert.deepEqual(sent, [["start", TOPIC]]);
    advance(2_000);
    notifier.onInput(TOPIC); // 10 s after the first start
    assert.deepEqual(sent, [["start", TOPIC], ["start", TOPIC]]);
  });

  it("sends stop after the stopped-wait period without input, once", () => {
    const { sent, notifier, advance } = setup();
    notifier.onInput(DM);
    advance(4_999);
    assert.equal(sent.length, 1);
    advance(1);
    assert.deepEqual(sent, [["start", DM], ["stop", DM]]);
    advance(60_000);
    assert.equal(sent.length, 2);
  });

  it("stops the old conversation and starts the new one when the recipient changes", () => {
    const { sent, notifier } = setup();
    notifier.onInput(TOPIC);
    notifier.onInput({ ...TOPIC, topic: "dinner" });
    assert.deepEqual(sent, [["start", TOPIC], ["stop", TOPIC], ["start", { ...TOPIC, topic: "dinner" }]]);
  });

  it("treats the same people in another order as the same conversation", () => {
    const { sent, notifier } = setup();
    notifier.onInput(DM);
    notifier.onInput({ type: "direct", to: [8, 9] });
    assert.equal(sent.length, 1);
  });

  it("stop() after sending is a no-op when nothing was started, and no recipient means stop", () => {
    const { sent, notifier, advance } = setup();
    notifier.stop();
    assert.deepEqual(sent, []);
    notifier.onInput(TOPIC);
    notifier.onInput(null);
    assert.deepEqual(sent, [["start", TOPIC], ["stop", TOPIC]]);
    advance(10_000);
    assert.equal(sent.length, 2); // the idle timer was cancelled with the stop
  });
});
