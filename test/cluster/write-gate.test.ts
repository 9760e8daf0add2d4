/**
 * One SQLite writer at a time across cluster workers (src/cluster/write-gate.ts): the primary's
 * turns go first come, first served, come back when a transaction ends or its worker dies; a
 * worker waits for its turn without blocking, gives it back once, and hands back a turn it had
 * given up on; every transaction of a store with a gate waits for the turn first and gives it
 * back whether it commits or fails.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sql } from "kysely";
import { IpcWriteGate, WriteTurns } from "../../src/cluster/write-gate.js";
import { isStoreUnavailable, transaction } from "../../src/store/db.js";
import { openTestStore } from "../helpers/stores.js";
import { FakeChannel } from "../helpers/fake-ipc-channel.js";

describe("the primary's write turns", () => {
  it("go first come, first served, and only the holder gives one back", () => {
    const turns = new WriteTurns();
    assert.deepEqual(turns.request(0, 1), { worker: 0, id: 1 });
    assert.equal(turns.request(1, 1), null);
    assert.equal(turns.request(0, 2), null);
    assert.equal(turns.done(1, 1), null, "not the holder");
    assert.equal(turns.done(0, 9), null, "not the held turn");
    assert.deepEqual(turns.done(0, 1), { worker: 1, id: 1 });
    assert.deepEqual(turns.done(1, 1), { worker: 0, id: 2 });
    assert.equal(turns.done(0, 2), null, "nobody waits");
    assert.deepEqual(turns.request(1, 2), { worker: 1, id: 2 }, "free again");
  });

  it("come back from a worker that died, with its waiting requests dropped", () => {
    const turns = new WriteTurns();
    turns.request(0, 1);
    turns.request(1, 1);
    turns.request(0, 2);
    turns.request(2, 1);
    assert.deepEqual(turns.drop(0), { worker: 1, id: 1 }, "the dead holder's turn passes on");
    assert.deepEqual(turns.done(1, 1), { worker: 2, id: 1 }, "its other request is gone");
    assert.equal(turns.drop(1), null, "a worker holding nothing");
  });
});

describe("a worker's write gate", () => {
  it("asks for a turn, waits for it, and gives it back once", async () => {
    const channel = new FakeChannel();
    const gate = new IpcWriteGate(channel);
    let granted = false;
    const turn = gate.acquire().then((release) => {
      granted = true;
      return release;
    });
    assert.deepEqual(channel.sent, [{ parley: "write-turn", id: 1 }]);
    await new Promise((r) => setImmediate(r));
    assert.equal(granted, false, "waits for the primary");
    channel.fromPrimary({ parley: "write-turn", id: 1 });
    const release = await turn;
    release();
    release();
    assert.deepEqual(channel.sent.slice(1), [{ parley: "write-done", id: 1 }], "given back once");
  });

  it("gives up a turn that does not come in time (answered as an unreachable store, nothing written), and hands it back when it comes", async () => {
    const channel = new FakeChannel();
    const gate = new IpcWriteGate(channel, undefined, 20);
    const t = await openTestStore("sqlite");
    try {
      t.store.writeGate = gate;
      let ran = false;
      // The gate's timer does not hold a process open (a server has other handles); this test's does.
      const alive = setInterval(() => undefined, 1000);
      const err = await transaction(t.store, async () => {
        ran = true;
      })
        .catch((e: unknown) => e)
        .finally(() => clearInterval(alive));
      assert.equal(ran, false, "the transaction never began");
      assert.ok(isStoreUnavailable(err), String(err));
      channel.fromPrimary({ parley: "write-turn", id: 1 });
      assert.deepEqual(channel.sent, [{ parley: "write-turn", id: 1 }, { parley: "write-done", id: 1 }]);
    } finally {
      t.store.writeGate = undefined;
      await t.cleanup();
    }
  });

  it("hands back at once a turn nobody waits for", () => {
    const channel = new FakeChannel();
    new IpcWriteGate(channel);
    channel.fromPrimary({ parley: "write-turn", id: 42 });
    assert.deepEqual(channel.sent, [{ parley: "write-done", id: 42 }]);
  });
});

describe("transactions of a store with a write gate", () => {
  it("wait for the turn before they begin and give it back after a commit or a failure", async () => {
    const t = await openTestStore("sqlite");
    try {
      const log: string[] = [];
      t.store.writeGate = {
        async acquire() {
          log.push("acquire");
          return () => log.push("release");
        },
      };
      await transaction(t.store, async (tx) => {
        log.push("inside");
        await sql`SELECT 1`.execute(tx.db);
      });
      await assert.rejects(
        transaction(t.store, async () => {
          log.push("inside");
          throw new Error("roll back");
        }),
        /roll back/,
      );
      assert.deepEqual(log, ["acquire", "inside", "release", "acquire", "inside", "release"]);
    } finally {
      t.store.writeGate = undefined;
      await t.cleanup();
    }
  });
});
