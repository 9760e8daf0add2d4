/**
 * What the browser tests of the web client need (issue 10): Debian's chromium (installed with
 * apt-get when missing and the tests run as root, as in CI), a client build in dist/web that is
 * not older than its sources, and a headless browser launched the way CI can run it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { ROOT } from "../helpers/server-process.js";

export const CHROMIUM_PATH = "/usr/bin/chromium";
/** Without a color emoji font, reactions and emoji in screenshots are empty boxes. */
const EMOJI_FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";
const WEB_SOURCES = join(ROOT, "web");
const BUILT_INDEX = join(ROOT, "dist", "web", "index.html");

/** A lock held this long is from a crashed run and is taken over. */
const STALE_LOCK_MS = 10 * 60 * 1000;

/**
 * Runs `fn` while holding a machine-wide lock (an atomic mkdir): test files run in parallel, and
 * two of them must not run apt-get or write dist/web at the same time.
 */
function withLock<T>(name: string, fn: () => T): T {
  const lock = join(tmpdir(), `parley-${name}.lock`);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(pause, 0, 0, 200); // a synchronous sleep: callers run this at module load
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function aptInstall(packages: string[]): void {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () => spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], { stdio: "ignore", env });
  if (install().status === 0) return;
  spawnSync("apt-get", ["update"], { stdio: "ignore", env }); // a fresh machine has no package lists yet
  install();
}

/**
 * The chromium executable, installing Debian's package (and the emoji font the screenshots need)
 * when missing and running as root; null when chromium is still missing.
 */
export function ensureChromium(): string | null {
  const missing = [existsSync(CHROMIUM_PATH) ? null : "chromium", existsSync(EMOJI_FONT) ? null : "fonts-noto-color-emoji"].filter((p) => p !== null);
  if (missing.length > 0 && process.platform === "linux" && process.getuid?.() === 0) withLock("apt", () => aptInstall(missing));
  return existsSync(CHROMIUM_PATH) ? CHROMIUM_PATH : null;
}

function newestSourceTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Runs `vite build` when dist/web is missing or older than any file under web/. */
export function ensureClientBuilt(): void {
  withLock("web-build", () => {
    const builtAt = existsSync(BUILT_INDEX) ? statSync(BUILT_INDEX).mtimeMs : 0;
    if (builtAt >= newestSourceTime(WEB_SOURCES)) return;
    const vite = join(ROOT, "node_modules", "vite", "bin", "vite.js");
    const build = spawnSync(process.execPath, [vite, "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { cwd: ROOT, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr || build.stdout}`);
  });
}

/** Headless chromium in a fresh temporary profile (Playwright creates one per launch). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
