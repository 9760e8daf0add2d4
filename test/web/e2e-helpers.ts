/**
 * What the browser tests share: a Parley process on a temporary SQLite store with an owner
 * (Alice) and a member (Bob), Debian's chromium, and the small page helpers (logging in, waiting
 * for text, finding a message).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { ApiClient, freePort, manageJson, ROOT, startServer, type ServerProcess } from "../helpers/server-process.js";
import { ensureClientBuilt, launchChromium } from "./browser.js";

/**
 * Where the browser tests write their screenshots: a git-ignored directory (test-output/screenshots)
 * so that `npm test` leaves the tree clean, or docs/screenshots/ when UPDATE_SCREENSHOTS=1 is set
 * (`npm run screenshots` does) to refresh the pictures the documentation shows.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === "1" ? join(ROOT, "docs", "screenshots") : join(ROOT, "test-output", "screenshots");
export const TIMEOUT = 20_000; // generous: CI runs two test files at once beside PostgreSQL; a wait ends as soon as it is met

export async function logIn(page: Page, base: string, email: string, password: string, screenshot?: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  if (screenshot) await page.screenshot({ path: join(SCREENSHOTS, screenshot) });
  await page.getByRole("button", { name: "Log in" }).click();
  await page.locator(".shell").waitFor({ timeout: TIMEOUT });
}

/** Waits until `locator` (its first match) contains `text`. */
export async function waitForText(locator: Locator, text: string | RegExp): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const content = (await locator.first().textContent({ timeout: TIMEOUT }).catch(() => null)) ?? "";
    if (typeof text === "string" ? content.includes(text) : text.test(content)) return;
    if (Date.now() > deadline) assert.fail(`expected ${String(text)} in ${JSON.stringify(content)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const messageWith = (page: Page, text: string) => page.locator("article.message", { hasText: text });

export interface WebRealm {
  dir: string;
  env: Record<string, string>;
  server: ServerProcess;
  browser: Browser;
  base: string;
  alice: ApiClient & { userId: number };
  bob: ApiClient & { userId: number };
  close(): Promise<void>;
}

/**
 * A fresh server for a browser test: realm "Acme" at the root domain of the address the browser
 * uses (so invitation links work as shown), Alice (owner, pw-alice-1) and Bob (member, pw-bob-1).
 */
export async function startWebRealm(chromiumPath: string, extraEnv: Record<string, string> = {}): Promise<WebRealm> {
  ensureClientBuilt();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "parley-web-"));
  const port = await freePort();
  const env = { DATABASE_URL: `sqlite:${join(dir, "parley.sqlite3")}`, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: `127.0.0.1:${port}`, ...extraEnv };
  type Created = { api_key: string; user_id: number };
  const owner = await manageJson<Created>(env, ["create-realm", "--subdomain", "", "--name", "Acme", "--owner-email", "alice@acme.test", "--owner-name", "Alice Admin", "--owner-password", "pw-alice-1"]);
  const [server, browser, member] = await Promise.all([
    startServer(port, env),
    launchChromium(chromiumPath),
    manageJson<Created>(env, ["create-user", "--realm", "", "--email", "bob@acme.test", "--full-name", "Bob Member", "--password", "pw-bob-1"]),
  ]);
  const client = (email: string, created: Created) => Object.assign(new ApiClient(port, email, created.api_key), { userId: created.user_id });
  return {
    dir,
    env,
    server,
    browser,
    base: `http://127.0.0.1:${port}`,
    alice: client("alice@acme.test", owner),
    bob: client("bob@acme.test", member),
    async close() {
      await browser.close();
      await server.stop("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
