/**
 * Account features of the web client (issue 20) in Debian's chromium: "Forgot password?" on the
 * login card through to a new password, the user's own API key after re-entering the password,
 * creating generic / incoming-webhook / outgoing-webhook bots and seeing their keys, and the
 * invitation page telling administrators that this server only writes mail to files (no SMTP_URL).
 * Screenshots go to SCREENSHOTS (e2e-helpers.ts). Skipped, with the reason, when chromium is
 * unavailable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { readMails, type MailRealm } from "../helpers/invites.js";
import { ApiClient } from "../helpers/server-process.js";
import { ensureChromium } from "./browser.js";
import { logIn, SCREENSHOTS, startWebRealm, TIMEOUT, waitForText, type WebRealm } from "./e2e-helpers.js";

const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP account e2e: chromium is not installed and could not be installed with apt-get");

describe("account features of the web client", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let realm: WebRealm;
  let page: Page;

  before(async () => {
    realm = await startWebRealm(chromiumPath as string);
    page = await (await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" })).newPage();
  });

  after(async () => {
    await realm?.close();
  });

  it("resets a forgotten password from the login card", async () => {
    await page.goto(`${realm.base}/`);
    await page.getByLabel("Email").fill("bob@acme.test");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    assert.equal(await page.getByLabel("Email").inputValue(), "bob@acme.test");
    await page.screenshot({ path: join(SCREENSHOTS, "forgot-password.png") });
    await page.getByRole("button", { name: "Send reset link" }).click();
    await waitForText(page.getByRole("status"), "If an account exists for bob@acme.test");

    const mails = readMails({ varDir: join(realm.dir, "var") } as MailRealm).filter((m) => m.headers.to?.includes("bob@acme.test"));
    assert.equal(mails.length, 1);
    const link = /https?:\/\/\S+\/accounts\/password\/reset\/[^/\s]+\//.exec(mails[0].text)?.[0];
    assert.ok(link, mails[0].text);
    await page.goto(link);
    await page.getByLabel("New password").fill("pw-bob-new-2");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("heading", { name: "Your password was changed" }).waitFor({ timeout: TIMEOUT });
    await logIn(page, realm.base, "bob@acme.test", "pw-bob-new-2");
    await page.getByRole("button", { name: "Bob Member" }).click();
    await page.getByRole("menuitem", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Log in" }).waitFor({ timeout: TIMEOUT });
  });

  it("shows the user's own API key once the password is entered again", async () => {
    await logIn(page, realm.base, "alice@acme.test", "pw-alice-1");
    await page.goto(`${realm.base}/#/settings/account`);
    const password = page.locator("#api-key-password");
    await password.fill("not-my-password");
    await page.getByRole("button", { name: "Show API key" }).click();
    await page.locator(".settings-card", { hasText: "API key" }).getByRole("alert").waitFor({ timeout: TIMEOUT });
    await password.fill("pw-alice-1");
    await page.getByRole("button", { name: "Show API key" }).click();
    const key = (await page.locator("#own-api-key").textContent({ timeout: TIMEOUT })) ?? "";
    const me = await new ApiClient(realm.server.port, "alice@acme.test", key).call("GET", "/users/me");
    assert.equal(me.status, 200, "the key shown works for the API");
    await page.locator("#own-api-key").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, "settings-api-key.png") });
  });

  it("creates generic, incoming and outgoing webhook bots and shows their API keys", async () => {
    await page.goto(`${realm.base}/#/settings/bots`);
    const create = async (type: string, name: string, short: string, url?: string) => {
      await page.getByLabel("Bot type").selectOption({ label: type });
      await page.getByLabel("Name", { exact: true }).fill(name);
      await page.getByLabel("Bot email (the part before -bot@)").fill(short);
      if (url) await page.getByLabel("Endpoint URL").fill(url);
      await page.getByRole("button", { name: "Create bot" }).click();
      await waitForText(page.locator(".new-bot-key"), `API key of ${name}`);
      return ((await page.locator(".new-bot-key code").textContent()) ?? "").trim();
    };
    const key = await create("Generic bot", "Deploy Bot", "deploy");
    // The key shown is the bot's: with the bot's address it authenticates as the bot.
    const own = await realm.alice.call("GET", "/bots");
    const listed = (own.body.bots as Array<{ username: string; api_key: string }>).find((b) => b.api_key === key);
    assert.ok(listed && listed.username.startsWith("deploy-bot@"), JSON.stringify(own.body));
    const asBot = await new ApiClient(realm.server.port, listed.username, key).call("GET", "/users/me");
    assert.equal(asBot.status, 200);
    assert.equal(asBot.body.full_name, "Deploy Bot");
    await create("Incoming webhook", "Alerts", "alerts");
    await create("Outgoing webhook", "Echo", "echo", "https://hooks.example.com/echo");

    const rows = page.getByRole("table", { name: "Your bots" }).getByRole("row");
    await waitForText(page.getByRole("table", { name: "Your bots" }), "Outgoing webhook");
    assert.equal(await rows.count(), 4); // the header and three bots
    await page.getByRole("button", { name: "Show the API key of Deploy Bot" }).click();
    await waitForText(page.getByRole("table", { name: "Your bots" }), key);
    await page.screenshot({ path: join(SCREENSHOTS, "settings-bots-create.png"), fullPage: true });
  });

  it("tells administrators that invitations are not emailed when the server has no SMTP_URL", async () => {
    await page.goto(`${realm.base}/#/settings/organization/invitations`);
    const note = page.getByRole("note");
    await waitForText(note, "This server does not send email");
    await page.screenshot({ path: join(SCREENSHOTS, "invitations-no-smtp.png") });
  });
});
