/**
 * The web client's people features (issue 20), live across two browsers in Debian's chromium:
 * the buddy list with active / idle / offline from presence, read receipts and the settings that
 * hide them, desktop notifications through a stubbed Notification API, and unread counts that
 * leave out muted topics and channels. Screenshots go to SCREENSHOTS (e2e-helpers.ts). Skipped,
 * with the reason, when chromium is unavailable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { ApiClient, manageJson } from "../helpers/server-process.js";
import { ensureChromium } from "./browser.js";
import { logIn, messageWith, SCREENSHOTS, startWebRealm, TIMEOUT, waitForText, type WebRealm } from "./e2e-helpers.js";

const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP people e2e: chromium is not installed and could not be installed with apt-get");

/** Records each notification the page creates in window.shownNotifications, permission granted. */
const NOTIFICATION_STUB = `
  window.shownNotifications = [];
  class StubNotification {
    constructor(title, options) { window.shownNotifications.push({ title, body: (options && options.body) || "" }); this.onclick = null; }
    close() {}
  }
  StubNotification.permission = "granted";
  StubNotification.requestPermission = () => Promise.resolve("granted");
  Object.defineProperty(window, "Notification", { value: StubNotification, configurable: true, writable: true });
`;

/** The buddy list's entry for a person, by their status attribute. */
const buddy = (page: Page, name: string) => page.locator(".buddy-list li", { hasText: name });

async function waitForStatus(page: Page, name: string, status: "active" | "idle" | "offline"): Promise<void> {
  await page.locator(`.buddy-list li[data-status="${status}"]`, { hasText: name }).waitFor({ timeout: TIMEOUT });
}

/** The unread badge beside a sidebar link ("" when there is none). */
async function badge(page: Page, linkName: RegExp): Promise<string> {
  // One read in the page: the badge may vanish between two separate look-ups.
  const link = page.locator("#sidebar").getByRole("link", { name: linkName }).first();
  return link.evaluate((el) => el.querySelector(".badge")?.textContent ?? "", undefined, { timeout: TIMEOUT });
}

async function waitForBadge(page: Page, linkName: RegExp, expected: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const now = await badge(page, linkName);
    if (now === expected) return;
    if (Date.now() > deadline) assert.fail(`badge of ${String(linkName)} is ${JSON.stringify(now)}, expected ${JSON.stringify(expected)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("people in the web client: presence, read receipts, notifications, unread counts", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let realm: WebRealm;
  let alice: Page;
  let bob: Page;
  let carol: ApiClient;
  let team: number;
  let ops: number;

  before(async () => {
    realm = await startWebRealm(chromiumPath as string);
    const created = async (email: string, name: string) =>
      manageJson<{ api_key: string; user_id: number }>(realm.env, ["create-user", "--realm", "", "--email", email, "--full-name", name, "--password", `pw-${email}`]);
    const [c] = await Promise.all([created("carol@acme.test", "Carol Idle"), created("dave@acme.test", "Dave Away")]);
    carol = new ApiClient(realm.server.port, "carol@acme.test", c.api_key);
    const subscribers = [realm.alice.userId, realm.bob.userId];
    team = (await realm.alice.call("POST", "/channels/create", { name: "team", subscribers })).body.id as number;
    ops = (await realm.alice.call("POST", "/channels/create", { name: "ops", subscribers })).body.id as number;
    // Carol's only client reports her idle (a background tab); Dave never connects.
    assert.equal((await carol.call("POST", "/users/me/presence", { status: "idle" })).status, 200);
    const pages = await Promise.all([0, 1].map(async () => (await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" })).newPage()));
    [alice, bob] = pages;
    await logIn(alice, realm.base, "alice@acme.test", "pw-alice-1");
  });

  after(async () => {
    await realm?.close();
  });

  it("lists people as active, idle or offline, and shows someone coming online live", async () => {
    await waitForStatus(alice, "Alice Admin", "active");
    await waitForStatus(alice, "Carol Idle", "idle");
    await waitForStatus(alice, "Dave Away", "offline");
    await waitForStatus(alice, "Bob Member", "offline");
    await logIn(bob, realm.base, "bob@acme.test", "pw-bob-1");
    await waitForStatus(alice, "Bob Member", "active");
    // Active people come first, then idle, then offline.
    const order = await alice.locator(".buddy-list li").evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.status));
    assert.deepEqual(order, [...order].sort((a, b) => ["active", "idle", "offline"].indexOf(a ?? "") - ["active", "idle", "offline"].indexOf(b ?? "")));
    await buddy(alice, "Bob Member").getByRole("link").click();
    await waitForText(alice.locator("#narrow-title"), "Bob Member");
    await alice.screenshot({ path: join(SCREENSHOTS, "buddy-list.png") });
  });

  it("shows who has read a message, and hides what the settings hide", async () => {
    const sent = await realm.bob.call("POST", "/messages", { type: "stream", to: team, topic: "receipts", content: "Did everyone see this?" });
    const id = sent.body.id as number;
    await realm.alice.call("POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    await bob.goto(`${realm.base}/#/narrow/channel/${team}-team/topic/receipts`);
    const message = messageWith(bob, "Did everyone see this?");
    await message.hover();
    await message.getByRole("button", { name: "View read receipts" }).click();
    const dialog = bob.getByRole("dialog", { name: "Read receipts" });
    await waitForText(dialog, "read by 1 person");
    await dialog.getByText("Alice Admin").waitFor({ timeout: TIMEOUT });
    await bob.screenshot({ path: join(SCREENSHOTS, "read-receipts.png") });
    await dialog.getByRole("button", { name: "Close" }).click();

    // Alice stops sharing read receipts: she is no longer listed.
    assert.equal((await realm.alice.call("PATCH", "/settings", { send_read_receipts: false })).status, 200);
    await message.hover();
    await message.getByRole("button", { name: "View read receipts" }).click();
    await waitForText(dialog, "No one has read this message yet.");
    await dialog.getByRole("button", { name: "Close" }).click();

    // The organization turns read receipts off: the action leaves Bob's open page at once.
    assert.equal((await realm.alice.call("PATCH", "/realm", { enable_read_receipts: false })).status, 200);
    await message.hover();
    await message.getByRole("button", { name: "View read receipts" }).waitFor({ state: "detached", timeout: TIMEOUT });
  });

  it("leaves muted topics and muted channels out of the sidebar's unread counts, live", async () => {
    // Alice reads elsewhere while Bob writes in #team, so the messages stay unread.
    await alice.goto(`${realm.base}/#/narrow/channel/${ops}-ops/topic/quiet`);
    await alice.getByText("No messages here yet.").waitFor({ timeout: TIMEOUT });
    await realm.alice.call("POST", "/mark_all_as_read");
    await waitForBadge(alice, /^Combined feed/, "");
    for (const [topic, content] of [["noise", "chatter 1"], ["noise", "chatter 2"], ["news", "release is out"]]) {
      await realm.bob.call("POST", "/messages", { type: "stream", to: team, topic, content });
    }
    await waitForBadge(alice, /^team/, "3");
    await waitForBadge(alice, /^Combined feed/, "3");

    assert.equal((await realm.alice.call("POST", "/user_topics", { stream_id: team, topic: "noise", visibility_policy: 1 })).status, 200);
    await waitForBadge(alice, /^team/, "1");
    await waitForBadge(alice, /^Combined feed/, "1");
    await alice.screenshot({ path: join(SCREENSHOTS, "unread-muted-topic.png") });

    const mute = await realm.alice.call("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: team, property: "is_muted", value: true }] });
    assert.equal(mute.status, 200, JSON.stringify(mute.body));
    await waitForBadge(alice, /^team/, "");
    await waitForBadge(alice, /^Combined feed/, "");

    // A followed topic in a muted channel counts again, as in Zulip.
    assert.equal((await realm.alice.call("POST", "/user_topics", { stream_id: team, topic: "news", visibility_policy: 3 })).status, 200);
    await waitForBadge(alice, /^team/, "1");
  });
  it("shows desktop notifications as the user's settings say, through the Notification API", async () => {
    // The stub goes in before any page script runs, so the bundle finds it as window.Notification.
    // It is a string, not a function: tsx would compile a function with helpers (__name,
    // __publicField) that do not exist in the page, and the script would fail there silently.
    const context = await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });
    await context.addInitScript({ content: NOTIFICATION_STUB });
    const page = await context.newPage();
    await logIn(page, realm.base, "alice@acme.test", "pw-alice-1");
    assert.equal(await page.evaluate(() => window.Notification.name), "StubNotification");
    await page.goto(`${realm.base}/#/settings/notifications`);
    await page.getByText("This browser shows Parley's desktop notifications.").waitFor({ timeout: TIMEOUT });
    const shown = () => page.evaluate(() => (window as unknown as { shownNotifications: Array<{ title: string; body: string }> }).shownNotifications.map((n) => `${n.title}: ${n.body}`));
    const waitForCount = async (count: number) => {
      await page.waitForFunction((n) => (window as unknown as { shownNotifications: unknown[] }).shownNotifications.length >= n, count, { timeout: TIMEOUT });
    };
    const bobSays = async (to: number | "alice", topic: string, content: string) => {
      const body = to === "alice" ? { type: "direct", to: [realm.alice.userId], content } : { type: "stream", to, topic, content };
      assert.equal((await realm.bob.call("POST", "/messages", body)).status, 200);
    };

    await bobSays("alice", "", "ping from Bob");
    await waitForCount(1);
    await bobSays(ops, "plain", "no mention here"); // channel messages do not notify by default
    await bobSays(ops, "plain", "@**Alice Admin** please look");
    await waitForCount(2);
    // #team is muted with its topic "noise" muted and "news" followed; its own setting turns on.
    const on = await realm.alice.call("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: team, property: "desktop_notifications", value: true }] });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await bobSays(team, "noise", "muted chatter");
    await bobSays(team, "news", "followed news");
    await waitForCount(3);
    // Desktop notifications for DMs and mentions turned off: a DM is silent, the channel's own setting still notifies.
    assert.equal((await realm.alice.call("PATCH", "/settings", { enable_desktop_notifications: false })).status, 200);
    await bobSays("alice", "", "silent DM");
    await bobSays(team, "news", "more news");
    await waitForCount(4);
    assert.deepEqual(await shown(), [
      "Bob Member: ping from Bob",
      "Bob Member (#ops > plain): @Alice Admin please look",
      "Bob Member (#team > news): followed news",
      "Bob Member (#team > news): more news",
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, "desktop-notifications-settings.png") });
    await context.close();
  });
});
