/** The thumbnail gate's fairness (uploads/thumbnailer.ts FairGate; issue 16, F14), by order, not by time. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BadImageError, FairGate } from "../../src/uploads/thumbnailer.js";

/** A task that runs until `release()` is called, recording when it started. */
function controlled(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: async () => { log.push(name); await done; return name; }, release: () => release() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("FairGate", () => {
  it("lets users take turns: one user's long queue delays another's image by one task at most", async () => {
    const gate = new FairGate(1, 20);
    const log: string[] = [];
    const bombs = Array.from({ length: 6 }, (_, i) => controlled(log, `bomb${i}`));
    const runs = bombs.map((b) => gate.run("attacker", b.task));
    await tick();
    const small = controlled(log, "small");
    const smallRun = gate.run("bystander", small.task);
    bombs[0].release();
    await tick();
    assert.deepEqual(log, ["bomb0", "small"], "the bystander's image runs right after the current one");
    small.release();
    for (const b of bombs.slice(1)) b.release();
    await Promise.all([...runs, smallRun]);
    assert.deepEqual(log, ["bomb0", "small", "bomb1", "bomb2", "bomb3", "bomb4", "bomb5"]);
  });

  it("refuses a user's task past their waiting limit, and keeps serving the others", async () => {
    const gate = new FairGate(1, 2);
    const log: string[] = [];
    const running = controlled(log, "running");
    const first = gate.run("a", running.task);
    const queued = [controlled(log, "q1"), controlled(log, "q2")];
    const waits = queued.map((q) => gate.run("a", q.task));
    await assert.rejects(gate.run("a", controlled(log, "q3").task), BadImageError);
    const other = controlled(log, "other");
    const otherRun = gate.run("b", other.task);
    running.release();
    other.release();
    for (const q of queued) q.release();
    await Promise.all([first, ...waits, otherRun]);
    assert.deepEqual(log, ["running", "other", "q1", "q2"]);
  });
});
