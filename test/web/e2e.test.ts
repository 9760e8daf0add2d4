/**
 * The web client end to end (issue 10, "Done when"): a real Parley process on a temporary SQLite
 * store, Debian's chromium driven by playwright-core, two users in two browser contexts. Alice
 * logs in, creates a channel and sends Markdown with files (a small one by POST /user_uploads, a
 * large one by tus); Bob sees it live, reacts, is seen typing, sends, edits and reads the edit
 * history. Screenshots of the main views go to SCREENSHOTS (e2e-helpers.ts). Skipped, with the reason, when
 * chromium is missing and cannot be installed.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { ApiClient, freePort, manageJson, ROOT, startServer, type ServerProcess } from "../helpers/server-process.js";
import { ensureChromium, ensureClientBuilt, launchChromium } from "./browser.js";
import { logIn, messageWith, SCREENSHOTS, TIMEOUT, waitForText } from "./e2e-helpers.js";

const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP web client e2e: chromium is not installed and could not be installed with apt-get");

describe("web client in a browser", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let dir: string;
  let server: ServerProcess;
  let base: string;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  let aliceApi: ApiClient;
  let aliceId: number;
  const contexts: BrowserContext[] = [];

  before(async () => {
    ensureClientBuilt();
    mkdirSync(SCREENSHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), "parley-web-e2e-"));
    const env = { DATABASE_URL: `sqlite:${join(dir, "parley.sqlite3")}`, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: "parley.test" };
    const owner = await manageJson<{ api_key: string; user_id: number }>(env, ["create-realm", "--subdomain", "", "--name", "Acme", "--owner-email", "alice@acme.test", "--owner-name", "Alice Admin", "--owner-password", "pw-alice-1"]);
    const port = await freePort();
    aliceApi = new ApiClient(port, "alice@acme.test", owner.api_key);
    aliceId = owner.user_id;
    [server, browser] = await Promise.all([
      startServer(port, env),
      launchChromium(chromiumPath as string),
      manageJson(env, ["create-user", "--realm", "", "--email", "bob@acme.test", "--full-name", "Bob Member", "--password", "pw-bob-1"]),
    ]);
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 2; i++) contexts.push(await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" }));
    [alice, bob] = await Promise.all(contexts.map((c) => c.newPage()));
  });

  after(async () => {
    await browser?.close();
    await server?.stop("SIGTERM");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships under 150 KB of gzipped HTML, JavaScript and CSS (issues 10 and 20)", () => {
    const dist = join(ROOT, "dist", "web");
    const files = ["index.html", ...readdirSync(join(dist, "assets")).filter((f) => /\.(js|css)$/.test(f)).map((f) => join("assets", f))];
    const gzipped = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
    console.log(`web client: ${files.length} files, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    assert.ok(gzipped < 150 * 1024, `${gzipped} bytes gzipped`);
  });

  it("rejects a wrong password on the login page", async () => {
    await alice.goto(`${base}/`);
    await alice.getByLabel("Email").fill("alice@acme.test");
    await alice.getByLabel("Password").fill("not-the-password");
    await alice.getByRole("button", { name: "Log in" }).click();
    await waitForText(alice.getByRole("alert"), /password|credentials/i);
  });

  it("lets two users talk: channel, Markdown, files, reactions, typing, edits and history", async () => {
    await logIn(alice, base, "alice@acme.test", "pw-alice-1", "login.png");
    await logIn(bob, base, "bob@acme.test", "pw-bob-1");

    // Alice creates a channel for everyone from the sidebar.
    await alice.getByRole("button", { name: "+ Create a channel" }).click();
    await alice.getByLabel("Name").fill("design");
    await alice.getByLabel("Subscribe everyone in the organization").check();
    await alice.getByRole("button", { name: "Create", exact: true }).click();
    await waitForText(alice.locator("#narrow-title"), "#design");
    await waitForText(bob.locator(".sidebar"), "design"); // Bob's sidebar follows the subscription event

    // Alice writes Markdown, attaches a small image, a text file and a large file (tus), previews, sends.
    await alice.getByRole("combobox", { name: "Topic", exact: true }).fill("launch");
    await alice.locator("#compose-content").fill("Plan for **launch** with `code`:\n> ship it\n\n");
    const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: "#3d5afe" } }).png().toBuffer();
    await alice.locator("#compose-file").setInputFiles([
      { name: "diagram.png", mimeType: "image/png", buffer: png },
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("release notes\n") },
      { name: "dataset.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(6 * 1024 * 1024, 7) },
    ]);
    await alice.waitForFunction(() => {
      const draft = (document.getElementById("compose-content") as HTMLTextAreaElement).value;
      return ["diagram.png](/user_uploads/", "notes.txt](/user_uploads/", "dataset.bin](/user_uploads/"].every((s) => draft.includes(s)) && !draft.includes("Uploading");
    }, undefined, { timeout: TIMEOUT });
    await alice.getByRole("button", { name: "Preview" }).click();
    await alice.locator(".compose-preview strong", { hasText: "launch" }).waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "compose-preview.png") });
    await alice.getByRole("button", { name: "Send" }).click();

    // Bob, still on the combined feed, sees it arrive with rendered Markdown and the image preview.
    const bobSees = messageWith(bob, "Plan for");
    await bobSees.locator("strong", { hasText: "launch" }).waitFor({ timeout: TIMEOUT });
    await bobSees.locator("blockquote", { hasText: "ship it" }).waitFor();
    await bob.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".message_inline_image img");
      return !!img && img.complete && img.naturalWidth === 120;
    }, undefined, { timeout: TIMEOUT });

    // Bob opens the topic and reacts; Alice sees the reaction live.
    await bob.locator(".recipient-bar a", { hasText: "launch" }).first().click();
    await waitForText(bob.locator("#narrow-title"), "launch");
    await messageWith(bob, "Plan for").hover();
    await messageWith(bob, "Plan for").getByRole("button", { name: "Add reaction" }).click();
    await bob.getByRole("menuitem", { name: "thumbs up" }).click();
    await alice.locator('button.reaction[aria-label^="thumbs up: 1"]').waitFor({ timeout: TIMEOUT });

    // Bob types: Alice (composing in the same topic) sees it; his message then replaces it.
    await bob.locator("#compose-content").pressSequentially("Looks grea");
    await waitForText(alice.locator(".typing-indicator"), "Bob Member is typing…");
    await bob.locator("#compose-content").press("End");
    await bob.locator("#compose-content").pressSequentially("t!");
    await bob.locator("#compose-content").press("Control+Enter");
    await messageWith(alice, "Looks great!").waitFor({ timeout: TIMEOUT });
    assert.equal((await alice.locator(".typing-indicator").textContent())?.trim(), "");

    // Bob edits his message; Alice sees the new text; Bob reads the history.
    const own = messageWith(bob, "Looks great!");
    await own.hover();
    await own.getByRole("button", { name: "Edit message" }).click();
    const editor = bob.getByRole("textbox", { name: "Edit message" });
    await editor.waitFor({ timeout: TIMEOUT });
    await bob.waitForFunction(() => (document.querySelector(".message-editor textarea") as HTMLTextAreaElement | null)?.value === "Looks great!");
    await editor.fill("Looks great! Shipping **today**.");
    await bob.getByRole("button", { name: "Save" }).click();
    await messageWith(alice, "Shipping today").locator("strong", { hasText: "today" }).waitFor({ timeout: TIMEOUT });
    await messageWith(alice, "Shipping today").getByRole("button", { name: /^edited/ }).waitFor();
    await messageWith(bob, "Shipping today").getByRole("button", { name: /^edited/ }).click();
    const history = bob.getByRole("dialog", { name: "Message edit history" });
    await history.locator(".edit-version").nth(1).waitFor({ timeout: TIMEOUT });
    assert.equal(await history.locator(".edit-version").count(), 2);
    await waitForText(history.locator(".edit-version").first(), "Looks great!");
    await waitForText(history.locator(".edit-version").nth(1), /Edited by Bob Member/);
    await bob.screenshot({ path: join(SCREENSHOTS, "edit-history.png") });
    await bob.keyboard.press("Escape");
    await history.waitFor({ state: "hidden" });

    // Messages on screen were marked read: neither sidebar has unread left.
    await bob.waitForFunction(() => document.querySelectorAll(".sidebar .badge").length === 0, undefined, { timeout: TIMEOUT });
    await alice.waitForFunction(() => document.querySelectorAll(".sidebar .badge").length === 0, undefined, { timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "message-view.png") });
  });

  it("loads history both ways as the reader scrolls, searches, and moves through the sidebar by keyboard", async () => {
    const created = await aliceApi.call("POST", "/channels/create", { name: "history", subscribers: [aliceId] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const ids: number[] = [];
    for (let i = 1; i <= 120; i++) {
      const sent = await aliceApi.call("POST", "/messages", { type: "stream", to: "history", topic: "old", content: `history message ${i}` });
      assert.equal(sent.status, 200);
      ids.push(sent.body.id as number);
    }
    // Unread from message 60 on: the narrow opens there, with older and newer pages still to load.
    const unread = await aliceApi.call("POST", "/messages/flags", { messages: ids.slice(59), op: "remove", flag: "read" });
    assert.equal(unread.status, 200, JSON.stringify(unread.body));
    await alice.goto("about:blank"); // a full page load below, not a hash change; the key stays in localStorage
    const started = Date.now();
    await alice.goto(`${base}/#/narrow/channel/${created.body.id}-history/topic/old`);
    await messageWith(alice, "history message 60").waitFor({ timeout: TIMEOUT });
    console.log(`web client: page load to the first page of messages in ${Date.now() - started} ms`);
    assert.equal(await alice.locator("article.message").count(), 101); // 50 before the anchor, 50 after
    const scrollUntilVisible = async (text: string, top: boolean) => {
      const target = alice.getByText(text, { exact: true });
      for (let i = 0; i < 40 && !(await target.isVisible()); i++) {
        await alice.locator(".message-scroller").evaluate((el, up) => (el.scrollTop = up ? 0 : el.scrollHeight), top);
        await alice.waitForTimeout(100);
      }
      await target.waitFor({ timeout: TIMEOUT });
    };
    await scrollUntilVisible("This is the beginning of the conversation.", true);
    await scrollUntilVisible("history message 120", false);
    assert.equal(await alice.locator("article.message").count(), 120);

    await alice.keyboard.press("/");
    await alice.keyboard.type("message 42");
    await alice.keyboard.press("Enter");
    await waitForText(alice.locator("#narrow-title"), "Search: message 42");
    await messageWith(alice, "history message 42").waitFor({ timeout: TIMEOUT });

    await alice.getByRole("link", { name: "Combined feed" }).focus();
    await alice.keyboard.press("ArrowDown");
    assert.equal(await alice.evaluate(() => document.activeElement?.textContent), "Mentions");
    await alice.keyboard.press("ArrowDown");
    await alice.keyboard.press("Enter");
    await waitForText(alice.locator("#narrow-title"), "Starred messages");
  });

  it("logs out, deleting the event queue and forgetting the key", async () => {
    await bob.getByRole("button", { name: /Bob Member/ }).click();
    await bob.getByRole("menuitem", { name: "Log out" }).click();
    await bob.getByRole("button", { name: "Log in" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await bob.evaluate(() => localStorage.getItem("parley.credentials")), null);
    await bob.reload();
    await bob.getByRole("button", { name: "Log in" }).waitFor({ timeout: TIMEOUT });
  });
});
