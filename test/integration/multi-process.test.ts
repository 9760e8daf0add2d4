/**
 * Two real Parley processes on one PostgreSQL database with Redis fanning events out: a message
 * sent through one process reaches a long-poll held by the other (issue 5, DEVELOPERS.md "the
 * machine"), and both deliver scheduled messages without sending any twice (issue 17). Skips
 * visibly unless TEST_DATABASE_URL and REDIS_URL are set (CI sets both).
 */
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { testStoreUrls } from "../../src/config.js";

const urls = testStoreUrls();
const NODE_ARGS = ["--import", "tsx"];

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server on ${port} never became ready`);
}

describe("two processes on PostgreSQL + Redis", { skip: !urls.postgres || !urls.redis ? "needs TEST_DATABASE_URL and REDIS_URL" : false }, () => {
  const schema = `mp_${process.pid}_${Date.now()}`;
  const procs: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;
  const ports = [19991 + (process.pid % 500), 20991 + (process.pid % 500)];
  let alice: { api_key: string; user_id: number };
  let bob: { api_key: string; user_id: number };

  before(async () => {
    const admin = new pg.Client({ connectionString: urls.postgres as string });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const base = urls.postgres as string;
    const databaseUrl = `${base}${base.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    env = { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: urls.redis as string, LOG_LEVEL: "warn", RATE_LIMITING: "off", WORKERS: "1", EXTERNAL_HOST: "localhost:9991" };
    const manage = (args: string[]) => JSON.parse(execFileSync(process.execPath, [...NODE_ARGS, "src/cli/manage.ts", ...args], { env }).toString());
    alice = manage(["create-realm", "--subdomain", "", "--name", "Multi", "--owner-email", "alice@multi.test", "--owner-name", "Alice", "--owner-password", "pw-alice-1"]);
    bob = manage(["create-user", "--realm", "", "--email", "bob@multi.test", "--full-name", "Bob", "--password", "pw-bob-1"]);
    for (const port of ports) {
      const child = spawn(process.execPath, [...NODE_ARGS, "src/main.ts"], { env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"] });
      procs.push(child);
    }
    await Promise.all(ports.map(waitReady));
  });

  after(async () => {
    for (const p of procs) p.kill("SIGTERM");
    await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once("exit", r)))));
    const admin = new pg.Client({ connectionString: urls.postgres as string });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  const call = async (port: number, who: { api_key: string }, email: string, method: string, path: string, params: Record<string, string> = {}) => {
    const body = new URLSearchParams(params);
    const url = `http://127.0.0.1:${port}/api/v1${path}${method === "GET" ? `?${body}` : ""}`;
    const res = await fetch(url, {
      method,
      headers: { authorization: "Basic " + Buffer.from(`${email}:${who.api_key}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
      body: method === "GET" ? undefined : body,
    });
    return res.json();
  };

  it("delivers a message sent through one process to a long-poll held by the other", async () => {
    const channel = await call(ports[0], alice, "alice@multi.test", "POST", "/channels/create", {
      name: "shared",
      subscribers: JSON.stringify([alice.user_id, bob.user_id]),
    });
    assert.equal(channel.result, "success", JSON.stringify(channel));
    const queue = await call(ports[0], bob, "bob@multi.test", "POST", "/register", { event_types: JSON.stringify(["message"]) });
    assert.equal(queue.result, "success", JSON.stringify(queue));
    const poll = call(ports[0], bob, "bob@multi.test", "GET", "/events", { queue_id: queue.queue_id, last_event_id: "-1" });
    await new Promise((r) => setTimeout(r, 100));
    const sent = await call(ports[1], alice, "alice@multi.test", "POST", "/messages", { type: "stream", to: "shared", topic: "t", content: "across processes" });
    assert.equal(sent.result, "success", JSON.stringify(sent));
    const got = await poll;
    assert.equal(got.result, "success", JSON.stringify(got));
    assert.equal(got.events[0].type, "message");
    assert.equal(got.events[0].message.id, sent.id);
  });

  it("a poll that reaches the wrong process gets BAD_EVENT_QUEUE_ID, so the client re-registers", async () => {
    const queue = await call(ports[0], bob, "bob@multi.test", "POST", "/register", {});
    const wrong = await call(ports[1], bob, "bob@multi.test", "GET", "/events", { queue_id: queue.queue_id, dont_block: "true" });
    assert.equal(wrong.code, "BAD_EVENT_QUEUE_ID");
  });

  it("sends each scheduled message exactly once while both processes deliver (issue 17)", async () => {
    const channel = await call(ports[0], alice, "alice@multi.test", "POST", "/channels/create", {
      name: "scheduled",
      subscribers: JSON.stringify([alice.user_id, bob.user_id]),
    });
    assert.equal(channel.result, "success", JSON.stringify(channel));
    // One due time for all, a few seconds ahead (still future when the requests arrive); made
    // through both processes, so both wake for it and compete for every row.
    const due = Math.floor(Date.now() / 1000) + 4;
    const contents = Array.from({ length: 24 }, (_, i) => `scheduled ${i}`);
    for (const [i, content] of contents.entries()) {
      const res = await call(ports[i % 2], alice, "alice@multi.test", "POST", "/scheduled_messages", {
        type: "stream",
        to: String(channel.id),
        topic: "race",
        content,
        scheduled_delivery_timestamp: String(due),
      });
      assert.equal(res.result, "success", JSON.stringify(res));
    }
    const deadline = Date.now() + 30_000;
    while ((await call(ports[1], alice, "alice@multi.test", "GET", "/scheduled_messages")).scheduled_messages.length > 0) {
      assert.ok(Date.now() < deadline, "every scheduled message is delivered");
      await new Promise((r) => setTimeout(r, 100));
    }
    const narrow = JSON.stringify([{ operator: "channel", operand: channel.id }]);
    const got = await call(ports[0], bob, "bob@multi.test", "GET", "/messages", { anchor: "newest", num_before: "100", num_after: "0", narrow, apply_markdown: "false" });
    assert.equal(got.result, "success", JSON.stringify(got));
    const sent = (got.messages as Array<{ content: string; timestamp: number }>).filter((m) => m.content.startsWith("scheduled "));
    assert.deepEqual(sent.map((m) => m.content).sort(), [...contents].sort(), "each once, none twice");
    assert.ok(sent.every((m) => m.timestamp >= due));
  });
});
