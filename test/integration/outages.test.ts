/**
 * A running server through outages of its dependencies (issue 18, item 4), as an operator sees it:
 * - Redis (a redis-server of the test's own, killed and started again): a parked poll learns at
 *   once that its queue is gone (BAD_EVENT_QUEUE_ID), sends and registers answer 503 at once
 *   instead of hanging, reads still work, /health names Redis, the log says it once as JSON; when
 *   Redis is back, everything works again and the log says that once too.
 * - PostgreSQL (reached through a TCP proxy the test cuts): sends answer 503 naming the database,
 *   /health names it; once the proxy is back, sends work again.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { testStoreUrls } from "../../src/config.js";
import { HAS_REDIS_SERVER, PrivateRedis } from "../helpers/private-redis.js";
import { ApiClient, freePort, manageJson, startServer, type ServerProcess } from "../helpers/server-process.js";
import { openTestStore, type TestStore } from "../helpers/stores.js";

/** Generous bound that only a hang would reach (the answers take milliseconds). */
const PROMPT_MS = 5_000;

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

const health = (port: number) => fetch(`http://127.0.0.1:${port}/health`).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> })); // eslint-disable-line @typescript-eslint/no-explicit-any
const logLines = (server: ServerProcess) => server.stdout().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { level: number; msg: string });

interface Account {
  user_id: number;
  api_key: string;
}

async function setUp(env: Record<string, string>): Promise<{ alice: Account; bob: Account }> {
  const alice = await manageJson<Account>(env, ["create-realm", "--subdomain", "", "--name", "Outage", "--owner-email", "alice@outage.test", "--owner-name", "Alice", "--owner-password", "pw-alice-1"]);
  const bob = await manageJson<Account>(env, ["create-user", "--realm", "", "--email", "bob@outage.test", "--full-name", "Bob", "--password", "pw-bob-1"]);
  return { alice, bob };
}

const dm = (to: string, content: string) => ({ type: "private", to: JSON.stringify([to]), content });

describe("a Redis outage while serving", { skip: HAS_REDIS_SERVER ? false : "needs redis-server" }, () => {
  let dir: string;
  let redis: PrivateRedis;
  let server: ServerProcess;
  let alice: ApiClient;
  let bob: ApiClient;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-redis-outage-"));
    redis = await PrivateRedis.start();
    const port = await freePort();
    const env = { DATABASE_URL: `sqlite:${join(dir, "parley.sqlite3")}`, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: `127.0.0.1:${port}`, REDIS_URL: redis.url, LOG_LEVEL: "info" };
    const accounts = await setUp(env);
    server = await startServer(port, env, { captureStdout: true });
    alice = new ApiClient(port, "alice@outage.test", accounts.alice.api_key);
    bob = new ApiClient(port, "bob@outage.test", accounts.bob.api_key);
  });
  after(async () => {
    await server?.stop("SIGKILL");
    await redis?.down();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fails fast and loses nothing silently, then recovers", async () => {
    const queue = await bob.call("POST", "/register", { event_types: ["message"] });
    assert.equal(queue.status, 200);
    const parked = bob.call("GET", "/events", { queue_id: queue.body.queue_id, last_event_id: -1 });
    await until("the poll is parked", async () => (await fetch(`http://127.0.0.1:${server.port}/metrics`).then((r) => r.text())).includes("parley_long_polls_parked 1"));

    await redis.down();
    const poll = await parked;
    assert.equal(poll.body.code, "BAD_EVENT_QUEUE_ID", "the parked poll is told its queue is gone");

    const signal = AbortSignal.timeout(PROMPT_MS);
    const send = await alice.call("POST", "/messages", dm("bob@outage.test", "during"), signal);
    assert.equal(send.status, 503);
    assert.equal(send.body.result, "error");
    assert.match(send.body.msg, /Redis is not answering/);
    assert.equal((await bob.call("POST", "/register", {}, signal)).status, 503);
    assert.equal((await bob.call("GET", "/users/me", {}, signal)).status, 200, "reads still work");
    const sick = await health(server.port);
    assert.equal(sick.status, 503);
    assert.deepEqual(sick.body.failing, ["redis"]);

    await redis.up();
    await until("the server reports healthy", async () => (await health(server.port)).status === 200);
    const again = await bob.call("POST", "/register", { event_types: ["message"] });
    assert.equal(again.status, 200);
    const sent = await alice.call("POST", "/messages", dm("bob@outage.test", "after"));
    assert.equal(sent.status, 200);
    const got = await bob.call("GET", "/events", { queue_id: again.body.queue_id, last_event_id: -1 });
    assert.deepEqual(got.body.events.map((e: { message: { id: number } }) => e.message.id), [sent.body.id]);

    const bus = logLines(server).filter((l) => l.msg.startsWith("event bus:"));
    assert.equal(bus.length, 2, `one line down, one line back: ${JSON.stringify(bus)}`);
    assert.match(bus[0].msg, /1 event queue\(s\) dropped/);
    assert.equal(bus[0].level, 50);
    assert.match(bus[1].msg, /Redis answers again/);
  });
});

/** A TCP proxy to PostgreSQL that the test can cut (every connection dropped, new ones refused) and restore. */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      upstream.connect(this.target.port, this.target.host, () => client.pipe(upstream).pipe(client));
    });
    await new Promise<void>((r) => this.server!.listen(this.port, "127.0.0.1", r));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise((r) => server.close(r));
  }
}

describe("a PostgreSQL outage while serving", { skip: testStoreUrls().postgres ? false : "needs TEST_DATABASE_URL" }, () => {
  let dir: string;
  let pg: TestStore;
  let proxy: CuttableProxy;
  let server: ServerProcess;
  let alice: ApiClient;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-pg-outage-"));
    pg = await openTestStore("postgres");
    const target = new URL(pg.url);
    proxy = new CuttableProxy(await freePort(), { host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const viaProxy = new URL(pg.url);
    viaProxy.port = String(proxy.port);
    const port = await freePort();
    const env = { DATABASE_URL: viaProxy.toString(), PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: `127.0.0.1:${port}` };
    const accounts = await setUp(env);
    server = await startServer(port, { ...env, LOG_LEVEL: "info" }, { captureStdout: true });
    alice = new ApiClient(port, "alice@outage.test", accounts.alice.api_key);
  });
  after(async () => {
    await server?.stop("SIGKILL");
    await proxy?.cut();
    await pg?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 naming the database while it is cut off, and works again once it is back", async () => {
    assert.equal((await alice.call("POST", "/messages", dm("alice@outage.test", "before"))).status, 200);
    await proxy.cut();
    const send = await alice.call("POST", "/messages", dm("alice@outage.test", "during"), AbortSignal.timeout(PROMPT_MS));
    assert.equal(send.status, 503);
    assert.match(send.body.msg, /the database is not answering/);
    const sick = await health(server.port);
    assert.equal(sick.status, 503);
    assert.deepEqual(sick.body.failing, ["database"]);

    await proxy.open();
    await until("the server reports healthy", async () => (await health(server.port)).status === 200);
    assert.equal((await alice.call("POST", "/messages", dm("alice@outage.test", "after"))).status, 200);
  });
});
