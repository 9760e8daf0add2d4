/**
 * Parley as the benchmark runs it: the compiled build (tsc into var/bench/build, as `npm run build`
 * compiles, production settings, rate limiting off) or, in quick mode, the sources through tsx so
 * a smoke run need not wait for the compiler.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startNode, waitUntilUp, type Child } from "./processes.js";

export const BUILD_DIR = join(ROOT, "var", "bench", "build");

export interface ParleyCommand {
  /** Node arguments up to (and including) the entry point. */
  args: string[];
  how: string;
}

/**
 * Compiles once per run. tsc still emits when some file has type errors (other work may be in
 * flight in the tree); the build is used whenever the entry point came out, with a warning.
 */
export function parleyCommand(compiled: boolean, profileDir: string | null): ParleyCommand {
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  if (!compiled) return { args: [...profile, "--import", "tsx", "src/main.ts"], how: "sources through tsx (quick mode without --compiled)" };
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", BUILD_DIR], { cwd: ROOT, encoding: "utf8" });
  const entry = join(BUILD_DIR, "src/main.js");
  if (!existsSync(entry)) throw new Error(`the build produced no ${entry}:\n${build.stdout}${build.stderr}`);
  if (build.status !== 0) console.warn(`warning: tsc reported errors (the emitted build is used):\n${build.stdout.split("\n").slice(0, 5).join("\n")}`);
  return { args: [...profile, entry], how: "compiled build" };
}

export interface ParleyEnv {
  databaseUrl: string;
  varDir: string;
  redisUrl?: string;
  /** WORKERS for this server; 1 when absent. */
  workers?: number;
}

/** Starts Parley on `port` and waits until it answers. */
export async function startParley(name: string, cmd: ParleyCommand, port: number, env: ParleyEnv): Promise<Child> {
  mkdirSync(env.varDir, { recursive: true });
  const child = startNode(name, port, cmd.args, {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    EXTERNAL_HOST: `127.0.0.1:${port}`,
    DATABASE_URL: env.databaseUrl,
    PARLEY_VAR_DIR: env.varDir,
    UPLOADS_DIR: join(env.varDir, "uploads"),
    RATE_LIMITING: "off",
    LOG_LEVEL: "warn",
    // One process unless a scenario asks for the cluster (s14-workers.ts).
    WORKERS: env.workers ? String(env.workers) : "1",
    // Empty means none, whatever this process's environment says.
    REDIS_URL: env.redisUrl ?? "",
  });
  await waitUntilUp(child, "/api/v1/server_settings");
  return child;
}
