/**
 * Parley as an operator runs it: `src/main.ts` and `src/cli/manage.ts` as child processes on a real
 * store, driven over loopback HTTP. For the crash and backup tests and the soak script.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { after, before } from "node:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { OPENAPI_PATH } from "./contract/document.js";
import { claimReportedViolations, CONTRACT_HEADER } from "./contract/hook.js";
import { openStore, type Store } from "../../src/store/db.js";
import { openTestStore, type StoreKind } from "./stores.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const NODE_ARGS = ["--import", "tsx"];
/** The server holds its answers to Zulip's API contract, like the apps tests build in-process. */
const SERVER_ARGS = [...NODE_ARGS, ...(existsSync(OPENAPI_PATH) ? ["--import", "./test/helpers/contract/child.ts"] : [])];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `manage …` with `env` (DATABASE_URL, UPLOADS_DIR…) added to this process's environment. */
export function runManage(env: Record<string, string>, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, "src/cli/manage.ts", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The JSON line of a successful `manage …`; throws with its stderr otherwise. */
export async function manageJson<T = Record<string, unknown>>(env: Record<string, string>, args: string[]): Promise<T> {
  const run = await runManage(env, args);
  if (run.code !== 0) throw new Error(`manage ${args[0]} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** Sends `signal` and waits for the exit. */
  stop(signal: NodeJS.Signals): Promise<Exit>;
  /** What the process printed on stdout so far (kept only when started with `captureStdout`). */
  stdout(): string;
}

/** Starts `src/main.ts` on `port` and waits until it answers; its stderr goes to ours. */
export async function startServer(port: number, env: Record<string, string>, options: { captureStdout?: boolean } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...SERVER_ARGS, "src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", RATE_LIMITING: "off", WORKERS: "1", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", options.captureStdout ? "pipe" : "ignore", "inherit"],
  });
  let printed = "";
  child.stdout?.on("data", (d) => (printed += d));
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const server: ServerProcess = {
    child,
    port,
    exited,
    stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    stdout: () => printed,
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited with code ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`).catch(() => null); // null: not listening yet
    if (ready?.ok) {
      claimReportedViolations(ready.headers.get(CONTRACT_HEADER));
      return server;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop("SIGKILL");
  throw new Error(`the server on port ${port} never came up`);
}

export interface ApiReply {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Calls the API of a server on loopback as one user, form-encoding like a Zulip client. */
export class ApiClient {
  private readonly authorization: string;

  constructor(
    private readonly port: number,
    readonly email: string,
    apiKey: string,
  ) {
    this.authorization = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
  }

  async call(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, params: Record<string, unknown> = {}, signal?: AbortSignal): Promise<ApiReply> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
    const query = method === "GET" && Object.keys(params).length > 0 ? `?${form}` : "";
    const res = await fetch(`http://127.0.0.1:${this.port}/api/v1${path}${query}`, {
      method,
      headers: { authorization: this.authorization, ...(method === "GET" ? {} : { "content-type": "application/x-www-form-urlencoded" }) },
      body: method === "GET" ? undefined : form.toString(),
      signal,
    });
    const body = (await res.json()) as ApiReply["body"];
    claimReportedViolations(res.headers.get(CONTRACT_HEADER));
    return { status: res.status, body };
  }
}

export interface Account {
  user_id: number;
  email: string;
  api_key: string;
}

/** A store shared by server processes and the test, with the realm "Crash" its owner made by `manage`. */
export interface ProcessStore {
  /** The environment that points `main.ts` and `manage` at it. */
  env: Record<string, string>;
  /** The test's own handle on it. */
  store: Store;
  owner: Account;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database, or a SQLite file in a new directory named after `prefix`. */
export async function openProcessStore(kind: StoreKind, prefix: string): Promise<ProcessStore> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const pg = kind === "postgres" ? await openTestStore("postgres") : null;
  const databaseUrl = pg ? pg.url : `sqlite:${join(dir, "parley.sqlite3")}`;
  const env = { DATABASE_URL: databaseUrl, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: "parley.test" };
  const owner = await manageJson<Account>(env, ["create-realm", "--subdomain", "", "--name", "Crash", "--owner-email", "owner@crash.test", "--owner-name", "Owner", "--owner-password", "pw-owner-1"]);
  const store = pg ? pg.store : openStore(databaseUrl);
  return {
    env,
    store,
    owner,
    async close() {
      if (pg) await pg.cleanup();
      else await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it holds; fails after `deadlineMs` (a deadline for a hang, not a timing assertion). */
export async function eventually(what: string, check: () => Promise<boolean> | boolean, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A crash test's world: a process store with the owner and a member, a free port, and the server it may start. */
export interface CrashWorld extends ProcessStore {
  member: Account;
  port: number;
  server: ServerProcess | null;
}

/**
 * For a describe block: the world made before its tests (a member besides the owner, a free
 * port), and, after them, any server still running killed and the store removed.
 */
export function useCrashWorld(kind: StoreKind, prefix: string): CrashWorld {
  const world = { server: null } as CrashWorld;
  before(async () => {
    Object.assign(world, await openProcessStore(kind, prefix));
    world.member = await manageJson<Account>(world.env, ["create-user", "--realm", "", "--email", "member@crash.test", "--full-name", "Member", "--password", "pw-member-1"]);
    world.port = await freePort();
  });
  after(async () => {
    await world.server?.stop("SIGKILL");
    await world.close();
  });
  return world;
}
