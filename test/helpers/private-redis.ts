/**
 * A Redis server of the test's own, on a free port, that the test may stop and start again (the
 * shared one on 6379 is never touched). Tests that use it skip visibly when `redis-server` is not
 * installed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { Socket } from "node:net";
import { freePort } from "./server-process.js";

export const HAS_REDIS_SERVER = spawnSync("redis-server", ["--version"]).status === 0;

/** Resolves once something answers PONG on the port. */
async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("error", () => done(false));
    socket.setTimeout(1000, () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (d) => done(d.toString().startsWith("+PONG")));
  });
}

export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on its port, with nothing saved between runs. */
  async up(): Promise<void> {
    this.child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      if (await answersPing(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server on ${this.port} did not come up`);
  }

  /** Stops the server (SIGKILL: an outage, not a polite shutdown) and waits for it to be gone. */
  async down(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }
}
