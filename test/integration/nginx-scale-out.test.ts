/**
 * The shipped deployment (deploy/) run as an operator would (issue 18, item 1): nginx with
 * deploy/nginx/parley.conf in front of three Parley processes started as deploy/systemd/parley@.service
 * and parley@.socket say — the compiled server, the unit's environment and the example environment
 * file, each process handed its listening socket like systemd's socket activation — on PostgreSQL
 * and Redis. Only ports and paths are changed. Through nginx, a zulip-js client registers and
 * follows a channel the way Zulip clients do (poll; on BAD_EVENT_QUEUE_ID register again and fetch
 * what it missed), while another zulip-js client sends:
 * - the process holding the follower's queue is SIGKILLed (and restarted as Restart= says): the
 *   follower registers again exactly once and receives every message sent after the kill;
 * - all three are restarted one after another (SIGTERM, then start): no request of either client
 *   fails, the follower keeps its queue and receives every message.
 * Skips visibly without nginx (CI installs it), TEST_DATABASE_URL or REDIS_URL.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { testStoreUrls } from "../../src/config.js";
import { freePort, manageJson, ROOT } from "../helpers/server-process.js";
import { openTestStore, type TestStore } from "../helpers/stores.js";

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const zulipInit = require("zulip-js") as (config: { username: string; apiKey: string; realm: string }) => Promise<any>;

const urls = testStoreUrls();
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => spawnSync(path, ["-v"]).status === 0);
/** systemd's way of holding a socket no process is accepting on (Node's cluster module uses it too). */
const createServerHandle = (net as unknown as { _createServerHandle?: (address: string, port: number, addressType: number) => { fd: number; close(): void } })._createServerHandle;
const INSTANCES = [1, 2, 3];
const skip = !NGINX ? "needs nginx (apt-get install nginx; .ci/run installs it)" : !urls.postgres || !urls.redis ? "needs TEST_DATABASE_URL and REDIS_URL" : !createServerHandle ? "needs net._createServerHandle" : false;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `Key=value` lines of a systemd unit or an environment file; repeated keys keep every value. */
function readSettings(path: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const raw of readFileSync(join(ROOT, path), "utf8").split("\n")) {
    const line = raw.trim();
    const eq = line.indexOf("=");
    if (line === "" || line.startsWith("#") || line.startsWith("[") || eq < 0) continue;
    settings.set(line.slice(0, eq), [...(settings.get(line.slice(0, eq)) ?? []), line.slice(eq + 1)]);
  }
  return settings;
}

const one = (settings: Map<string, string[]>, key: string) => {
  const values = settings.get(key);
  assert.ok(values?.length === 1, `exactly one ${key}=`);
  return values[0];
};

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A Zulip client's event loop, as zulip-terminal and the mobile app run it. */
class Follower {
  queueId = "";
  lastEventId = -1;
  registers = 0;
  readonly received = new Set<number>();
  readonly failures: string[] = [];
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly client: any) {}

  async register(): Promise<void> {
    const queue = await this.client.queues.register({ event_types: ["message"] });
    if (queue.result !== "success") throw new Error(`register failed: ${JSON.stringify(queue)}`);
    this.registers++;
    this.queueId = queue.queue_id;
    this.lastEventId = queue.last_event_id;
  }

  /** After registering again: what was sent while it had no queue, as clients fetch it. */
  private async catchUp(): Promise<void> {
    const anchor = this.received.size ? Math.max(...this.received) : "newest";
    const page = await this.client.messages.retrieve({ anchor, num_before: 0, num_after: 1000, narrow: [{ operator: "channel", operand: "ops" }] });
    if (page.result !== "success") throw new Error(`fetch failed: ${JSON.stringify(page)}`);
    for (const m of page.messages) this.received.add(m.id);
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        let answer: any;
        try {
          answer = await this.client.events.retrieve({ queue_id: this.queueId, last_event_id: this.lastEventId });
        } catch (err) {
          if (!this.stopped) this.failures.push(`poll: ${String(err)}`);
          await sleep(100);
          continue;
        }
        if (answer.result === "success") {
          for (const event of answer.events) {
            this.lastEventId = Math.max(this.lastEventId, event.id);
            if (event.type === "message") this.received.add(event.message.id);
          }
        } else if (answer.code === "BAD_EVENT_QUEUE_ID") {
          await this.register();
          await this.catchUp();
        } else if (!this.stopped) {
          this.failures.push(`poll: ${JSON.stringify(answer)}`);
          await sleep(100);
        }
      }
    })();
  }

  async stop(wake: () => Promise<unknown>): Promise<void> {
    this.stopped = true;
    await wake();
    await this.loop;
  }
}

describe("nginx in front of three Parley processes, from deploy/", { skip }, () => {
  let dir: string;
  let pg: TestStore;
  let nginx: ChildProcess;
  let nginxPort: number;
  const ports = new Map<number, number>();
  const sockets = new Map<number, { fd: number; close(): void }>();
  const processes = new Map<number, ChildProcess>();
  let env: Record<string, string>;
  let command: string[];
  let restartDelayMs: number;
  let alice: any;
  let bob: any;
  const sent: number[] = [];
  const sendFailures: string[] = [];

  /** Starts instance i the way systemd does: the unit's command, environment and socket. */
  function startInstance(i: number): ChildProcess {
    const instanceEnv = { ...env, PORT: String(ports.get(i)), LISTEN_FDS: "1" };
    // LISTEN_PID must be the server's own pid: the shell sets it to its own and then becomes node.
    const child = spawn("sh", ["-c", 'LISTEN_PID=$$ exec "$@"', "sh", ...command], {
      cwd: ROOT,
      env: { ...process.env, ...instanceEnv },
      stdio: ["ignore", "ignore", "inherit", sockets.get(i)!.fd],
    });
    processes.set(i, child);
    return child;
  }

  async function waitHealthy(i: number): Promise<void> {
    await until(`instance ${i} to answer /health`, async () => {
      try {
        return (await fetch(`http://127.0.0.1:${ports.get(i)}/health`, { signal: AbortSignal.timeout(5_000) })).ok;
      } catch {
        return false;
      }
    });
  }

  function stopInstance(i: number, signal: NodeJS.Signals): Promise<unknown> {
    const child = processes.get(i)!;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    return exited;
  }

  async function send(content: string): Promise<void> {
    try {
      const answer = await alice.messages.send({ to: "ops", type: "stream", topic: "deploy", content });
      if (answer.result === "success") sent.push(answer.id);
      else sendFailures.push(JSON.stringify(answer));
    } catch (err) {
      sendFailures.push(String(err));
    }
  }

  before(async () => {
    // The units run the compiled server: bring dist/ up to date first (a no-op in CI, which builds).
    const build = spawnSync(process.execPath, ["scripts/build-if-stale.mjs"], { cwd: ROOT, stdio: "inherit" });
    assert.equal(build.status, 0, "the build succeeds");
    dir = mkdtempSync(join(tmpdir(), "parley-nginx-"));
    pg = await openTestStore("postgres");

    const service = readSettings("deploy/systemd/parley@.service");
    const socket = readSettings("deploy/systemd/parley@.socket");
    const envFile = readSettings("deploy/parley.env.example");
    assert.equal(one(service, "UMask"), "0077");
    assert.equal(one(service, "Restart"), "always");
    assert.equal(one(service, "EnvironmentFile"), "/etc/parley/parley.env");
    assert.ok(one(service, "User"));
    restartDelayMs = Number(one(service, "RestartSec")) * 1000;
    // Templated paths: the unit's node and working directory are this machine's.
    command = one(service, "ExecStart").split(" ").map((word) => (word === "/usr/bin/node" ? process.execPath : word));
    assert.deepEqual(command.slice(1), ["dist/src/main.js"]);
    assert.equal(one(socket, "ListenStream"), "127.0.0.1:999%i");
    assert.equal(one(service, "Environment"), "PORT=999%i");

    env = Object.fromEntries([...envFile].map(([key, values]) => [key, values.at(-1) as string]));
    assert.equal(env.TRUSTED_PROXIES, "loopback");
    nginxPort = await freePort();
    Object.assign(env, {
      DATABASE_URL: pg.url,
      REDIS_URL: urls.redis as string,
      UPLOADS_DIR: join(dir, "uploads"),
      PARLEY_VAR_DIR: join(dir, "var"),
      EXTERNAL_HOST: `127.0.0.1:${nginxPort}`,
      LOG_LEVEL: "warn",
    });
    const owner = await manageJson<{ api_key: string; user_id: number }>(env, ["create-realm", "--subdomain", "", "--name", "Ops", "--owner-email", "alice@ops.test", "--owner-name", "Alice", "--owner-password", "pw-alice-1"]);
    const member = await manageJson<{ api_key: string; user_id: number }>(env, ["create-user", "--realm", "", "--email", "bob@ops.test", "--full-name", "Bob", "--password", "pw-bob-1"]);

    let site = readFileSync(join(ROOT, "deploy/nginx/parley.conf"), "utf8");
    for (const i of INSTANCES) {
      ports.set(i, await freePort());
      assert.ok(site.includes(`server 127.0.0.1:999${i} `), `the site lists instance ${i}`);
      site = site.replace(`server 127.0.0.1:999${i} `, `server 127.0.0.1:${ports.get(i)} `);
      sockets.set(i, createServerHandle!("127.0.0.1", ports.get(i)!, 4));
    }
    site = site.replace("listen 80;", `listen 127.0.0.1:${nginxPort};`).replace("listen [::]:80;", "");
    writeFileSync(join(dir, "parley.conf"), site);
    for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, temp));
    writeFileSync(
      join(dir, "nginx.conf"),
      `daemon off; master_process off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/parley.conf;
}
`,
    );
    const check = spawnSync(NGINX!, ["-t", "-q", "-c", join(dir, "nginx.conf")], { encoding: "utf8" });
    assert.equal(check.status, 0, `nginx accepts the site: ${check.stderr}`);
    nginx = spawn(NGINX!, ["-c", join(dir, "nginx.conf")], { stdio: ["ignore", "ignore", "inherit"] });
    for (const i of INSTANCES) startInstance(i);
    await Promise.all(INSTANCES.map(waitHealthy));

    const realm = `http://127.0.0.1:${nginxPort}`;
    alice = await zulipInit({ username: "alice@ops.test", apiKey: owner.api_key, realm });
    bob = await zulipInit({ username: "bob@ops.test", apiKey: member.api_key, realm });
    const channel = await alice.callEndpoint("/users/me/subscriptions", "POST", { subscriptions: [{ name: "ops" }], principals: [owner.user_id, member.user_id] });
    assert.equal(channel.result, "success", JSON.stringify(channel));
  });

  after(async () => {
    await Promise.all(INSTANCES.map((i) => (processes.has(i) ? stopInstance(i, "SIGKILL") : null)));
    for (const socket of sockets.values()) socket.close();
    nginx?.kill("SIGTERM");
    await pg?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("survives a SIGKILL with one re-register and a rolling restart with no failed request", async () => {
    const follower = new Follower(bob);
    await follower.register();
    follower.start();
    await send("hello through nginx");
    await until("the first message to arrive", () => follower.received.has(sent[0]));

    // Which process holds the queue: the one that knows it.
    const holder = await (async () => {
      for (const i of INSTANCES) {
        const res = await fetch(`http://127.0.0.1:${ports.get(i)}/api/v1/events?queue_id=${encodeURIComponent(follower.queueId)}&dont_block=true`, {
          headers: { authorization: "Basic " + Buffer.from(`bob@ops.test:${bob.config.apiKey}`).toString("base64") },
        });
        if (res.ok) return i;
      }
      throw new Error("no process holds the queue");
    })();

    await stopInstance(holder, "SIGKILL");
    const afterKill = sent.length;
    const restarted = sleep(restartDelayMs).then(() => startInstance(holder));
    for (let n = 0; n < 5; n++) await send(`after the kill ${n}`);
    await restarted;
    await until("every message sent after the kill", () => sent.slice(afterKill).every((id) => follower.received.has(id)));
    assert.equal(follower.registers, 2, "one re-register after the kill");
    assert.deepEqual(sendFailures, []);
    assert.deepEqual(follower.failures, []);

    // Rolling restart, one process after the other, while messages keep coming.
    const beforeRestarts = sent.length;
    let sending = true;
    const sender = (async () => {
      for (let n = 0; sending; n++) {
        await send(`during the restarts ${n}`);
        await sleep(100);
      }
    })();
    for (const i of INSTANCES) {
      await stopInstance(i, "SIGTERM");
      startInstance(i);
      await waitHealthy(i);
    }
    sending = false;
    await sender;
    await send("after the restarts");
    await until("every message sent during the restarts", () => sent.slice(beforeRestarts).every((id) => follower.received.has(id)));
    assert.deepEqual(sendFailures, [], "no send failed");
    assert.deepEqual(follower.failures, [], "no poll failed");
    assert.equal(follower.registers, 2, "the queue survived the restarts (no re-register)");
    assert.ok(sent.length - beforeRestarts > 5, "messages were sent throughout");
    await follower.stop(() => send("bye"));
  });
});
