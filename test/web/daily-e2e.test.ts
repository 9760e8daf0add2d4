/**
 * The web client as a daily driver (issue 20), end to end in Debian's chromium: search operators
 * and highlighted matches, the compose channel picker after creating a channel, an image message
 * that stays scrolled to the bottom, errors that do not outlive their cause, and a 390 × 844
 * phone viewport that navigates channels, reads and sends. Each feature leaves a screenshot in
 * SCREENSHOTS (e2e-helpers.ts). Skipped, with the reason, when chromium is unavailable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { ensureChromium } from "./browser.js";
import { logIn, messageWith, SCREENSHOTS, startWebRealm, TIMEOUT, waitForText, type WebRealm } from "./e2e-helpers.js";

const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP daily-driver e2e: chromium is not installed and could not be installed with apt-get");

async function search(page: Page, query: string): Promise<void> {
  await page.locator("#search-input").fill(query);
  await page.locator("#search-input").press("Enter");
  await waitForText(page.locator("#narrow-title"), `Search: ${query}`);
  await page.locator(".message-scroller[aria-busy='false']").waitFor({ timeout: TIMEOUT });
}

const shownMessages = (page: Page) => page.locator("article.message .message-body").allTextContents();

describe("the web client as a daily driver", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let realm: WebRealm;
  let alice: Page;
  let bob: Page;
  let engineering: number;
  const contexts: BrowserContext[] = [];
  const requestedHosts = new Set<string>();

  before(async () => {
    // A 1 MiB upload limit, so the test can meet the "file too large" error cheaply; Gravatar on,
    // so the server hands out gravatar.com avatar URLs that the client must not fetch.
    realm = await startWebRealm(chromiumPath as string, { MAX_FILE_UPLOAD_SIZE_MIB: "1", ENABLE_GRAVATAR: "true" });
    const created = await realm.alice.call("POST", "/channels/create", { name: "engineering", subscribers: [realm.alice.userId, realm.bob.userId] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    engineering = created.body.id as number;
    const send = async (who: "alice" | "bob", topic: string, content: string) => {
      const sent = await realm[who].call("POST", "/messages", { type: "stream", to: engineering, topic, content });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      return sent.body.id as number;
    };
    await send("bob", "deploys", "The deploy of version 2 went fine");
    const starred = await send("alice", "lunch", "Pizza on Friday?");
    await send("alice", "deploys", "Next deploy on Monday, see https://example.com/runbook");
    await realm.alice.call("POST", "/messages/flags", { messages: [starred], op: "add", flag: "starred" });
    contexts.push(await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" }));
    contexts.push(await realm.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "light", isMobile: true, hasTouch: true }));
    [alice, bob] = await Promise.all(contexts.map((c) => c.newPage()));
    for (const page of [alice, bob]) page.on("request", (request) => requestedHosts.add(new URL(request.url()).hostname));
    await logIn(alice, realm.base, "alice@acme.test", "pw-alice-1");
  });

  after(async () => {
    await realm?.close();
  });

  it("narrows by search operators and highlights the words searched for", async () => {
    await search(alice, "sender:bob@acme.test");
    assert.deepEqual(await shownMessages(alice), ["The deploy of version 2 went fine"]);

    await search(alice, "channel:engineering topic:deploys");
    assert.equal((await shownMessages(alice)).length, 2);

    await search(alice, "is:starred");
    assert.deepEqual(await shownMessages(alice), ["Pizza on Friday?"]);

    await search(alice, "has:link -sender:bob@acme.test");
    assert.equal((await shownMessages(alice)).length, 1);

    await search(alice, "sender:alice@acme.test deploy");
    await waitForText(alice.locator("article.message .highlight"), /deploy/i);
    assert.deepEqual(await shownMessages(alice), ["Next deploy on Monday, see https://example.com/runbook"]);

    // Typing an operator offers completions (a native datalist).
    await alice.locator("#search-input").fill("sender:b");
    await alice.waitForFunction(() => [...document.querySelectorAll("#search-suggestions option")].some((o) => (o as HTMLOptionElement).value === "sender:bob@acme.test"), undefined, { timeout: TIMEOUT });
    await alice.locator("#search-input").fill("sender:alice@acme.test deploy");
    await alice.screenshot({ path: join(SCREENSHOTS, "search-operators.png") });
  });

  it("offers a channel just created in the compose channel picker", async () => {
    await alice.getByRole("button", { name: "+ Create a channel" }).click();
    await alice.getByLabel("Name").fill("ops");
    await alice.getByRole("button", { name: "Create", exact: true }).click();
    await waitForText(alice.locator("#narrow-title"), "#ops");
    await alice.waitForFunction(() => (document.getElementById("compose-channel") as HTMLSelectElement | null)?.selectedOptions[0]?.textContent === "#ops", undefined, { timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "compose-new-channel.png") });
  });

  it("keeps an image message in view once its thumbnail loads, and drops an error once it is stale", async () => {
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/deploys`);
    for (let i = 0; i < 30; i++) await realm.bob.call("POST", "/messages", { type: "stream", to: engineering, topic: "deploys", content: `filler line ${i}` });
    await messageWith(alice, "filler line 29").waitFor({ timeout: TIMEOUT });

    // Too large for the 1 MiB limit: an error; the next upload that works clears it.
    await alice.locator("#compose-file").setInputFiles([{ name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(1536 * 1024, 1) }]);
    await waitForText(alice.locator(".compose .form-error"), "larger than the 1 MiB limit");
    const png = await sharp({ create: { width: 300, height: 400, channels: 3, background: "#ff7043" } }).png().toBuffer();
    await alice.locator("#compose-file").setInputFiles([{ name: "tall.png", mimeType: "image/png", buffer: png }]);
    await alice.waitForFunction(() => (document.getElementById("compose-content") as HTMLTextAreaElement).value.includes("tall.png](/user_uploads/"), undefined, { timeout: TIMEOUT });
    assert.equal(await alice.locator(".compose .form-error").count(), 0);
    await alice.getByRole("button", { name: "Send" }).click();

    await alice.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>("article.message:last-of-type .message_inline_image img, .message-row:last-child .message_inline_image img");
        const el = document.querySelector<HTMLElement>(".message-scroller");
        return !!img && img.complete && img.naturalHeight > 0 && !!el && el.scrollHeight - el.scrollTop - el.clientHeight < 5;
      },
      undefined,
      { timeout: TIMEOUT },
    );
    await alice.screenshot({ path: join(SCREENSHOTS, "image-message-bottom.png") });
  });

  it("navigates channels, reads and sends on a 390 × 844 phone screen", async () => {
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering`);
    await logIn(bob, realm.base, "bob@acme.test", "pw-bob-1");
    const toggle = bob.getByRole("button", { name: "Channels and conversations" });
    assert.equal(await bob.locator("#sidebar").isVisible(), false);
    await toggle.click();
    await bob.locator("#sidebar").waitFor({ state: "visible", timeout: TIMEOUT });
    await bob.screenshot({ path: join(SCREENSHOTS, "mobile-sidebar.png") });
    await bob.locator("#sidebar").getByRole("link", { name: /^engineering/ }).first().click();
    await waitForText(bob.locator("#narrow-title"), "#engineering");
    await bob.locator("#sidebar").waitFor({ state: "hidden", timeout: TIMEOUT });
    await messageWith(bob, "Pizza on Friday?").waitFor({ timeout: TIMEOUT });

    await bob.getByRole("combobox", { name: "Topic", exact: true }).fill("lunch");
    await bob.locator("#compose-content").fill("Friday works for me");
    await bob.getByRole("button", { name: "Send" }).click();
    await messageWith(bob, "Friday works for me").waitFor({ timeout: TIMEOUT });
    const overflow = await bob.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await bob.screenshot({ path: join(SCREENSHOTS, "mobile-messages.png") });
    await messageWith(alice, "Friday works for me").waitFor({ timeout: TIMEOUT });
  });

  it("sends with Enter once the reader ticks Enter to send (Zulip's enter_sends)", async () => {
    await alice.getByLabel("Enter to send").check();
    await alice.waitForFunction(() => (document.getElementById("compose-content") as HTMLTextAreaElement).placeholder.startsWith("Message (Enter to send"), undefined, { timeout: TIMEOUT });
    await alice.getByRole("combobox", { name: "Topic", exact: true }).fill("lunch");
    await alice.locator("#compose-content").fill("Sent with Enter");
    await alice.locator("#compose-content").press("Enter");
    await messageWith(alice, "Sent with Enter").waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "compose-enter-sends.png") });
  });

  it("shows initials instead of fetching Gravatar pictures, so offline networks log no errors", () => {
    assert.deepEqual([...requestedHosts].filter((host) => host.endsWith("gravatar.com")), []);
    assert.ok(requestedHosts.has("127.0.0.1"));
  });

  it("lists Notification Bot among the bots without a role or Deactivate button", async () => {
    // Subscribing someone else to an existing channel (#ops, made above) has Notification Bot
    // tell them, which creates the bot.
    const subscribed = await realm.alice.call("POST", "/users/me/subscriptions", { subscriptions: [{ name: "ops" }], principals: [realm.bob.userId] });
    assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
    await alice.goto(`${realm.base}/#/settings/organization/users`);
    await alice.getByRole("button", { name: "Bots", exact: true }).click();
    const bot = alice.getByRole("row", { name: /Notification Bot/ });
    await bot.getByText("System bot").waitFor({ timeout: TIMEOUT });
    assert.equal(await bot.getByRole("button").count(), 0);
    assert.equal(await bot.getByRole("combobox").count(), 0);
    await alice.screenshot({ path: join(SCREENSHOTS, "settings-bots.png") });
  });

  it("quotes, links, moves and deletes messages from the message toolbar", async () => {
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
    const pizza = messageWith(alice, "Pizza on Friday?");
    await pizza.hover();
    await pizza.getByRole("button", { name: "Quote and reply" }).click();
    await alice.waitForFunction(() => (document.getElementById("compose-content") as HTMLTextAreaElement).value.includes("```quote\nPizza on Friday?\n```"), undefined, { timeout: TIMEOUT });
    await pizza.hover();
    await pizza.getByRole("button", { name: "Copy link to message" }).click();
    await pizza.getByRole("status").getByText(/Link copied|Could not copy/).waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "message-actions.png") });
    await alice.locator("#compose-content").fill("");

    // Move the topic (a prompt asks for the new name), then delete a message (after a confirm).
    alice.once("dialog", (dialog) => void dialog.accept("food"));
    await pizza.hover();
    await pizza.getByRole("button", { name: "Move topic" }).click();
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/food`);
    const moved = messageWith(alice, "Sent with Enter");
    await moved.waitFor({ timeout: TIMEOUT });
    alice.once("dialog", (dialog) => void dialog.accept());
    await moved.hover();
    await moved.getByRole("button", { name: "Delete message" }).click();
    await moved.waitFor({ state: "detached", timeout: TIMEOUT });
  });

  it("marks a channel read from the sidebar and keeps muted topics out of the combined feed", async () => {
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/food`);
    await messageWith(alice, "Pizza on Friday?").waitFor({ timeout: TIMEOUT });
    const muted = await realm.alice.call("POST", "/user_topics", { stream_id: engineering, topic: "deploys", visibility_policy: 1 });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    await realm.bob.call("POST", "/messages", { type: "stream", to: engineering, topic: "deploys", content: "muted chatter" });
    await realm.bob.call("POST", "/messages", { type: "stream", to: engineering, topic: "food", content: "Pasta instead?" });
    await alice.getByRole("link", { name: "Combined feed" }).click();
    await messageWith(alice, "Pasta instead?").waitFor({ timeout: TIMEOUT });
    assert.equal(await messageWith(alice, "muted chatter").count(), 0);
    assert.equal(await messageWith(alice, "filler line 3").count(), 0); // older messages of the muted topic too

    // Unread messages in another channel: the sidebar offers to mark them read.
    const ops = (await realm.alice.call("GET", "/get_stream_id", { stream: "ops" })).body.stream_id as number;
    // (Sent while Alice reads another topic: on her screen they would be read at once.)
    await alice.goto(`${realm.base}/#/narrow/channel/${ops}-ops/topic/nothing-here`);
    await alice.getByText("No messages here yet.").waitFor({ timeout: TIMEOUT });
    for (let i = 0; i < 3; i++) await realm.bob.call("POST", "/messages", { type: "stream", to: ops, topic: "pager", content: `page ${i}` });
    const markRead = alice.getByRole("button", { name: "Mark #ops as read" });
    await markRead.waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "sidebar-mark-read.png") });
    await markRead.click();
    await markRead.waitFor({ state: "detached", timeout: TIMEOUT });
  });
});
