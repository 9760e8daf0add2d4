/**
 * The settings and administration pages end to end (issue 10: "an administrator invites a user who
 * joins through the link"): a real Parley process on a temporary SQLite store and Debian's chromium
 * driven by playwright-core (test/web/browser.ts). An administrator creates a channel folder and a
 * channel in it, sees a server error shown, creates a multi-use invitation link; a new user opens
 * the link, joins with the server-rendered form (/join/<key>/), logs in to the web client and finds
 * the channel under its folder, without the organization pages. Screenshots of the settings views
 * go to SCREENSHOTS (e2e-helpers.ts). Skipped, with the reason, when chromium is unavailable.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { freePort, manageJson, startServer, type ServerProcess } from "../helpers/server-process.js";
import { ensureChromium, ensureClientBuilt, launchChromium } from "./browser.js";
import { SCREENSHOTS } from "./e2e-helpers.js";

const TIMEOUT = 10_000;
const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP settings e2e: chromium is not installed and could not be installed with apt-get");

async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.locator(".shell").waitFor({ timeout: TIMEOUT });
}

/** Follows a link of the settings sidebar, as a user would. */
async function openSection(page: Page, title: string): Promise<void> {
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: title, exact: true }).click();
  await page.getByRole("heading", { level: 1, name: title }).waitFor({ timeout: TIMEOUT });
}

describe("settings and administration in a browser", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let dir: string;
  let server: ServerProcess;
  let base: string;
  let browser: Browser;
  let admin: Page;
  let inviteLink: string;
  const contexts: BrowserContext[] = [];

  before(async () => {
    ensureClientBuilt();
    mkdirSync(SCREENSHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), "parley-admin-e2e-"));
    const port = await freePort();
    // The realm is the root domain at the address the browser uses, so invitation links work as shown.
    const env = { DATABASE_URL: `sqlite:${join(dir, "parley.sqlite3")}`, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: `127.0.0.1:${port}` };
    await manageJson(env, ["create-realm", "--subdomain", "", "--name", "Acme", "--owner-email", "owner@acme.test", "--owner-name", "Olivia Owner", "--owner-password", "pw-owner-1"]);
    [server, browser] = await Promise.all([
      startServer(port, env),
      launchChromium(chromiumPath as string),
      manageJson(env, ["create-user", "--realm", "", "--email", "ada@acme.test", "--full-name", "Ada Admin", "--password", "pw-ada-1", "--role", "200"]),
    ]);
    base = `http://127.0.0.1:${port}`;
    contexts.push(await browser.newContext({ viewport: { width: 1280, height: 960 }, colorScheme: "light" }));
    admin = await contexts[0].newPage();
    admin.on("dialog", (dialog) => void dialog.accept());
    await signIn(admin, base, "ada@acme.test", "pw-ada-1");
  });

  after(async () => {
    await browser?.close();
    await server?.stop("SIGTERM");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("opens the settings from the user menu and saves a personal setting", async () => {
    await admin.getByRole("button", { name: "Ada Admin" }).click();
    await admin.getByRole("menuitem", { name: "Settings" }).click();
    await admin.getByRole("heading", { level: 1, name: "Profile" }).waitFor({ timeout: TIMEOUT });
    await openSection(admin, "Preferences");
    // The section's heading takes focus, so a screen reader announces the page.
    assert.equal(await admin.evaluate(() => document.activeElement?.textContent), "Preferences");
    await admin.getByLabel("Use full width on wide screens").check();
    await admin.getByRole("group", { name: "General" }).getByText("Saved").waitFor({ timeout: TIMEOUT });
    await admin.screenshot({ path: join(SCREENSHOTS, "settings-personal.png") });
  });

  it("creates a channel folder and a channel in it", async () => {
    await openSection(admin, "Channel folders");
    const folderForm = admin.getByRole("form", { name: "Create a folder" });
    await folderForm.getByLabel("Folder name").fill("Engineering");
    await folderForm.getByLabel("Description").fill("Where things get built");
    await folderForm.getByRole("button", { name: "Create folder" }).click();
    await admin.locator(".settings-list-item", { hasText: "Engineering" }).waitFor({ timeout: TIMEOUT });

    await openSection(admin, "Channels");
    await admin.getByRole("link", { name: "Create channel" }).click();
    await admin.getByLabel("Channel name").fill("design");
    await admin.getByLabel("Description").fill("Sketches and **reviews**");
    await admin.getByLabel("Folder").selectOption({ label: "Engineering" });
    await admin.getByRole("button", { name: "Create channel" }).click();
    await admin.getByRole("heading", { name: "#design" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await admin.getByLabel("Folder").locator("option:checked").textContent(), "Engineering");
  });

  it("shows the server's error when a channel name is taken", async () => {
    await admin.getByRole("link", { name: "← All channels" }).click();
    await admin.getByRole("link", { name: "Create channel" }).click();
    await admin.getByLabel("Channel name").fill("design");
    await admin.getByRole("button", { name: "Create channel" }).click();
    const alert = admin.getByRole("alert");
    await alert.waitFor({ timeout: TIMEOUT });
    assert.match((await alert.textContent()) ?? "", /already exists/);
    await admin.getByRole("link", { name: "Cancel" }).click();
    await admin.getByRole("link", { name: "#design", exact: true }).waitFor({ timeout: TIMEOUT });
    await admin.screenshot({ path: join(SCREENSHOTS, "settings-channels.png") });
  });

  it("lists users with their roles", async () => {
    await openSection(admin, "Users");
    assert.equal(await admin.getByLabel("Role of Olivia Owner").inputValue(), "100");
    assert.equal(await admin.getByLabel("Role of Ada Admin").inputValue(), "200");
    await admin.screenshot({ path: join(SCREENSHOTS, "settings-users.png") });
  });

  it("creates a multi-use invitation link to the channel", async () => {
    await openSection(admin, "Invitations");
    const linkForm = admin.getByRole("form", { name: "Create an invitation link" });
    await linkForm.getByLabel("#design").check();
    await linkForm.getByRole("button", { name: "Create link" }).click();
    const shown = linkForm.getByRole("textbox", { name: "Invitation link", exact: true });
    await shown.waitFor({ timeout: TIMEOUT });
    inviteLink = await shown.inputValue();
    assert.match(inviteLink, new RegExp(`^${base}/join/[^/]+/$`));
    // The pending list hears of the new link through invites_changed and shows it too.
    await admin.locator(".settings-table").getByRole("button", { name: "Revoke the invitation link" }).waitFor({ timeout: TIMEOUT });
    await admin.screenshot({ path: join(SCREENSHOTS, "settings-invitations.png") });
  });

  it("lets a new user join through the link and find the channel in its folder", async () => {
    assert.ok(inviteLink, "the previous test creates the link");
    contexts.push(await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" }));
    const newcomer = await contexts[1].newPage();
    await newcomer.goto(inviteLink);
    await newcomer.getByLabel("Email address").fill("nia@acme.test");
    await newcomer.getByLabel("Full name").fill("Nia Newcomer");
    await newcomer.getByLabel("Password").fill("pw-nia-12");
    await newcomer.screenshot({ path: join(SCREENSHOTS, "join-form.png") });
    await newcomer.getByRole("button", { name: "Create account" }).click();
    // Joining signs the newcomer in (issue 20): the welcome page moves on to the web client.
    await newcomer.getByText("you are logged in").waitFor({ timeout: TIMEOUT });
    await newcomer.screenshot({ path: join(SCREENSHOTS, "join-welcome.png") });
    await newcomer.locator(".shell").waitFor({ timeout: TIMEOUT });
    // The key is kept for the browser, not the tab: a second tab is signed in too.
    const secondTab = await contexts[1].newPage();
    await secondTab.goto(`${base}/`);
    await secondTab.locator(".shell").waitFor({ timeout: TIMEOUT });
    await secondTab.close();
    const folder = newcomer.locator(".sidebar-group", { hasText: "Engineering" });
    await folder.locator(".channel-link", { hasText: "design" }).waitFor({ timeout: TIMEOUT });

    // A member has personal settings only; an organization page says it is for administrators.
    await newcomer.goto(`${base}/#/settings/organization/users`);
    await newcomer.getByRole("alert").getByText("Only organization administrators").waitFor({ timeout: TIMEOUT });
    assert.equal(await newcomer.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Users" }).count(), 0);

    // The administrator's list shows the newcomer live (realm_user event).
    await admin.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Users", exact: true }).click();
    assert.equal(await admin.getByLabel("Role of Nia Newcomer").inputValue(), "400");

  });

  it("changes a role, and manages linkifiers and user groups, showing the server's refusals", async () => {
    await admin.getByLabel("Role of Nia Newcomer").selectOption({ label: "Moderator" });
    await admin.getByRole("row", { name: /Nia Newcomer/ }).getByText("Role changed").waitFor({ timeout: TIMEOUT });
    assert.equal(await admin.getByLabel("Role of Nia Newcomer").inputValue(), "300");

    await openSection(admin, "Linkifiers");
    const add = admin.getByRole("form", { name: "Add a linkifier" });
    await add.getByLabel("Pattern", { exact: true }).fill("#(?P<id>[0-9]+)");
    await add.getByLabel("URL template", { exact: true }).fill("https://tracker.acme.test/{id}");
    await add.getByRole("button", { name: "Add linkifier" }).click();
    await admin.locator(".settings-list-item", { hasText: "https://tracker.acme.test/{id}" }).waitFor({ timeout: TIMEOUT });
    await add.getByLabel("Pattern", { exact: true }).fill("(unclosed");
    await add.getByLabel("URL template", { exact: true }).fill("https://tracker.acme.test/{id}");
    await add.getByRole("button", { name: "Add linkifier" }).click();
    await add.getByRole("alert").waitFor({ timeout: TIMEOUT });

    await openSection(admin, "User groups");
    await admin.getByLabel("Group name").fill("designers");
    await admin.getByLabel("Description").fill("People who draw");
    await admin.getByRole("combobox", { name: "Members" }).fill("Nia");
    await admin.getByRole("combobox", { name: "Members" }).press("Enter");
    await admin.getByRole("button", { name: "Create group" }).click();
    await admin.getByRole("heading", { name: "designers" }).waitFor({ timeout: TIMEOUT });
    const members = admin.getByRole("list", { name: "Group members: selected" });
    assert.deepEqual((await members.getByRole("listitem").allTextContents()).map((t) => t.replace("×", "")).sort(), ["Ada Admin", "Nia Newcomer"]);
  });
});
