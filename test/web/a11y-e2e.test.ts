/**
 * An accessibility pass over the web client's main views with axe-core (issue 20, "Done when"):
 * the login page and its forgot-password form, the combined feed, a channel with compose (its
 * typeahead, emoji picker and schedule dialog open), search results, drafts, scheduled messages and
 * reminders, the settings pages,
 * the phone layout with its sidebar open, and the join form. No serious or critical violation
 * may remain. Skipped, with the reason, when chromium is unavailable.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { ensureChromium } from "./browser.js";
import { logIn, startWebRealm, TIMEOUT, waitForText, type WebRealm } from "./e2e-helpers.js";

const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP accessibility e2e: chromium is not installed and could not be installed with apt-get");
const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** The serious and critical violations axe finds on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

describe("accessibility of the main views (axe-core)", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let realm: WebRealm;
  let page: Page;
  let channelId: number;

  before(async () => {
    realm = await startWebRealm(chromiumPath as string);
    // A new organization starts with #general, and both Alice and Bob are subscribed (a default channel).
    const general = await realm.alice.call("GET", "/get_stream_id", { stream: "general" });
    assert.equal(general.status, 200, JSON.stringify(general.body));
    channelId = general.body.stream_id as number;
    await realm.bob.call("POST", "/messages", { type: "stream", to: channelId, topic: "hello", content: "Welcome **everyone** :wave: see https://example.com" });
    await realm.alice.call("POST", "/messages", { type: "direct", to: [realm.bob.userId], content: "A direct message" });
    // bypassCSP: the client's CSP (rightly) refuses the injected axe script.
    const context = await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light", bypassCSP: true });
    page = await context.newPage();
  });

  after(async () => {
    await realm?.close();
  });

  const views: Array<[name: string, open: () => Promise<void>]> = [
    ["login page", async () => {
      await page.goto(`${realm.base}/`);
      await page.getByRole("button", { name: "Log in" }).waitFor({ timeout: TIMEOUT });
    }],
    ["forgot password form", async () => {
      await page.getByRole("button", { name: "Forgot password?" }).click();
      await page.getByRole("button", { name: "Send reset link" }).waitFor({ timeout: TIMEOUT });
      await page.goto(`${realm.base}/`);
      await page.getByRole("button", { name: "Log in" }).waitFor({ timeout: TIMEOUT });
    }],
    ["combined feed", async () => {
      await logIn(page, realm.base, "alice@acme.test", "pw-alice-1");
      await page.locator("article.message").first().waitFor({ timeout: TIMEOUT });
    }],
    ["channel with compose", async () => {
      await page.goto(`${realm.base}/#/narrow/channel/${channelId}-general/topic/hello`);
      await waitForText(page.locator("#narrow-title"), "hello");
      await page.locator("article.message").first().waitFor({ timeout: TIMEOUT });
    }],
    ["search results", async () => {
      await page.locator("#search-input").fill("sender:bob@acme.test everyone");
      await page.locator("#search-input").press("Enter");
      await page.locator("article.message .highlight").first().waitFor({ timeout: TIMEOUT });
    }],
    ["compose with the mention typeahead open", async () => {
      await page.goto(`${realm.base}/#/narrow/channel/${channelId}-general/topic/hello`);
      await page.locator("#compose-content").fill("Hi @bo");
      await page.getByRole("listbox", { name: "Suggestions" }).getByRole("option").first().waitFor({ timeout: TIMEOUT });
    }],
    ["compose with the emoji picker open", async () => {
      await page.locator("#compose-content").fill("");
      await page.getByRole("button", { name: "Emoji", exact: true }).click();
      await page.getByRole("dialog", { name: "Insert an emoji" }).getByRole("menuitem").nth(20).waitFor({ timeout: TIMEOUT });
    }],
    ["compose with the schedule dialog open", async () => {
      await page.keyboard.press("Escape");
      await page.locator("#compose-content").fill("Later");
      await page.getByRole("button", { name: "Schedule", exact: true }).click();
      await page.getByRole("dialog", { name: "Schedule message" }).waitFor({ timeout: TIMEOUT });
    }],
    ["drafts", async () => {
      const saved = await realm.alice.call("POST", "/drafts", { drafts: [{ type: "stream", to: [channelId], topic: "hello", content: "An unsent thought" }] });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      await page.goto(`${realm.base}/#/drafts`);
      await page.getByRole("list", { name: "Drafts" }).getByText("An unsent thought").waitFor({ timeout: TIMEOUT });
    }],
    ["scheduled messages and reminders", async () => {
      const when = Math.floor(Date.now() / 1000) + 86_400;
      const scheduled = await realm.alice.call("POST", "/scheduled_messages", { type: "stream", to: channelId, topic: "hello", content: "See you tomorrow", scheduled_delivery_timestamp: when });
      assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
      const messages = await realm.alice.call("GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: channelId }]) });
      const target = (messages.body.messages as Array<{ id: number }>)[0].id;
      const reminder = await realm.alice.call("POST", "/reminders", { message_id: target, scheduled_delivery_timestamp: when, note: "follow up" });
      assert.equal(reminder.status, 200, JSON.stringify(reminder.body));
      await page.goto(`${realm.base}/#/scheduled`);
      await page.getByRole("list", { name: "Scheduled messages" }).getByText("See you tomorrow").waitFor({ timeout: TIMEOUT });
      await page.getByRole("list", { name: "Reminders" }).getByText("follow up").waitFor({ timeout: TIMEOUT });
    }],
    ["personal settings", async () => {
      await page.goto(`${realm.base}/#/settings/profile`);
      await page.getByRole("heading", { level: 1, name: "Profile" }).waitFor({ timeout: TIMEOUT });
    }],
    ["bots settings and the buddy list", async () => {
      await page.goto(`${realm.base}/#/settings/bots`);
      await page.getByRole("heading", { level: 2, name: "Add a new bot" }).waitFor({ timeout: TIMEOUT });
      await page.locator(".buddy-list li").first().waitFor({ timeout: TIMEOUT });
    }],
    ["account settings with the API key form", async () => {
      await page.goto(`${realm.base}/#/settings/account`);
      await page.getByRole("button", { name: "Show API key" }).waitFor({ timeout: TIMEOUT });
    }],
    ["invitations with the no-email note", async () => {
      await page.goto(`${realm.base}/#/settings/organization/invitations`);
      await page.getByRole("note").waitFor({ timeout: TIMEOUT });
    }],
    ["organization users", async () => {
      await page.goto(`${realm.base}/#/settings/organization/users`);
      await page.getByRole("heading", { level: 1, name: "Users" }).waitFor({ timeout: TIMEOUT });
    }],
    ["phone layout with the sidebar open", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${realm.base}/#/`);
      await page.getByRole("button", { name: "Channels and conversations" }).click();
      await page.locator("#sidebar").waitFor({ state: "visible", timeout: TIMEOUT });
    }],
    ["join form", async () => {
      const link = await realm.alice.call("POST", "/invites/multiuse", { invite_expires_in_minutes: 60 });
      assert.equal(link.status, 200, JSON.stringify(link.body));
      await page.goto(link.body.invite_link as string);
      await page.getByRole("button", { name: "Create account" }).waitFor({ timeout: TIMEOUT });
    }],
  ];

  for (const [name, open] of views) {
    it(`finds no serious or critical violation: ${name}`, async () => {
      await open();
      assert.deepEqual(await seriousViolations(page), []);
    });
  }
});
