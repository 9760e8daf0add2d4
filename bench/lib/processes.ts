/**
 * Child processes of a benchmark run (Parley, the bare baselines): start, wait until they answer,
 * read their CPU time and memory from /proc, stop them. Every child is stopped when the run ends,
 * however it ends (stopAll), so nothing outlives the benchmark.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const STARTUP_POLLS = 600;
const STARTUP_POLL_MS = 100;
const STOP_GRACE_MS = 10_000;

export interface Child {
  name: string;
  port: number;
  process: ChildProcess;
  pid: number;
}

const running = new Set<Child>();

/** Starts `node …args` with `env` added; its stderr goes to ours, prefixed by its name. */
export function startNode(name: string, port: number, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
  child.stderr?.on("data", (d: Buffer) => process.stderr.write(d.toString().replace(/^(?=.)/gm, `[${name}] `)));
  const c: Child = { name, port, process: child, pid: child.pid as number };
  running.add(c);
  child.once("exit", () => running.delete(c));
  return c;
}

/** Resolves once GET `path` answers 2xx; throws if the child exits first or never answers. */
export async function waitUntilUp(child: Child, path: string): Promise<void> {
  for (let i = 0; i < STARTUP_POLLS; i++) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited with code ${child.process.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${child.port}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, STARTUP_POLL_MS));
  }
  throw new Error(`${child.name} did not answer on port ${child.port}`);
}

/** SIGINT (so --cpu-prof profiles get written and Parley shuts down cleanly), SIGKILL after a grace period. */
export function stop(child: Child): Promise<void> {
  const p = child.process;
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => p.kill("SIGKILL"), STOP_GRACE_MS);
    p.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    p.kill("SIGINT");
  });
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(stop));
}

/** User + system CPU seconds the process has used, or NaN without /proc. */
export function cpuSeconds(pid: number): number {
  const path = `/proc/${pid}/stat`;
  if (!existsSync(path)) return NaN;
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15, in ticks.
  const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
  const TICKS_PER_SECOND = 100;
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds a process may use in a quiet window and still count as idle (one clock tick). */
const IDLE_CPU_SECONDS = 0.01;

/**
 * Resolves once none of the processes has used CPU for a window of `quietMs` — it has dealt with
 * everything it was sent, e.g. parked thousands of polls — or after `maxMs` at the latest.
 */
export async function waitForIdle(pids: number[], quietMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = pids.map(cpuSeconds);
  do {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = pids.map(cpuSeconds);
    // Without /proc (NaN) there is nothing to watch: one quiet window is all the wait.
    if (now.every((c, i) => !(c - last[i] > IDLE_CPU_SECONDS))) return;
    last = now;
  } while (Date.now() < deadline);
}

export interface Memory {
  /** Resident set now, MiB. */
  rss: number;
  /** Peak resident set so far, MiB. */
  hwm: number;
}

/** The process and its children (a cluster primary's workers), from /proc. */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

/** CPU seconds of a process and its children (a cluster's primary and workers). */
export const treeCpu = (pid: number) => processTree(pid).reduce((sum, p) => sum + (cpuSeconds(p) || 0), 0);

/** Resident memory of a process and its children, MiB. */
export const treeRss = (pid: number) => processTree(pid).reduce((sum, p) => sum + (memory(p).rss || 0), 0);

/** VmRSS and VmHWM from /proc/<pid>/status (NaN without /proc). */
export function memory(pid: number): Memory {
  const path = `/proc/${pid}/status`;
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const field = (name: string) => {
    const m = new RegExp(`${name}:\\s+(\\d+) kB`).exec(text);
    return m ? Number(m[1]) / 1024 : NaN;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** Readings of an idle process's memory: steady after this many equal-ish samples a second apart. */
const STEADY_SAMPLES = 3;
const STEADY_TOLERANCE_MIB = 1;
/** The memory reducer returns tens of megabytes at once; a dip smaller than this is not it. */
const SHRUNK_FRACTION = 0.95;

/**
 * The memory of a process left idle: V8 keeps the heap it grew during start-up until its memory
 * reducer runs (some seconds of idleness later: 20–35 s in Node 20), so RSS is sampled every
 * second until it has come down by at least 5% from the start-up peak and held steady, or `maxMs`
 * have passed. Returns the last reading and how long the process had been left idle.
 */
export async function idleMemory(pid: number, maxMs: number): Promise<Memory & { idleMs: number }> {
  const start = Date.now();
  const peak = memory(pid).rss;
  const recent: number[] = [];
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const m = memory(pid);
    recent.push(m.rss);
    const last = recent.slice(-STEADY_SAMPLES);
    const steady = last.length === STEADY_SAMPLES && Math.max(...last) - Math.min(...last) <= STEADY_TOLERANCE_MIB;
    if ((steady && m.rss < peak * SHRUNK_FRACTION) || Date.now() - start >= maxMs || Number.isNaN(m.rss)) return { ...m, idleMs: Date.now() - start };
  }
}
