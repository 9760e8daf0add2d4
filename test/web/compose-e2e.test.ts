/**
 * The compose half of the daily-driver web client (issue 20), end to end in Debian's chromium with
 * two people: typeahead for mentions, channels, topics and emoji (keyboard only, ARIA combobox and
 * listbox), the emoji picker over the full emoji set, drafts, scheduled messages and reminders.
 * Each feature leaves a screenshot in docs/screenshots/. Skipped when chromium is unavailable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { ensureChromium } from "./browser.js";
import { logIn, messageWith, SCREENSHOTS, startWebRealm, TIMEOUT, waitForText, type WebRealm } from "./e2e-helpers.js";

const chromiumPath = ensureChromium();
if (!chromiumPath) console.log("# SKIP compose e2e: chromium is not installed and could not be installed with apt-get");

const composeValue = (page: Page) => page.locator("#compose-content").inputValue();

/** Polls `check` (an API read) until it holds. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the compose box holds exactly `text`. */
async function waitForCompose(page: Page, text: string): Promise<void> {
  await page.waitForFunction((t) => (document.getElementById("compose-content") as HTMLTextAreaElement | null)?.value === t, text, { timeout: TIMEOUT });
}

describe("the compose box of the web client", { skip: chromiumPath ? false : "chromium unavailable" }, () => {
  let realm: WebRealm;
  let alice: Page;
  let bob: Page;
  let engineering: number;

  before(async () => {
    realm = await startWebRealm(chromiumPath as string);
    const created = await realm.alice.call("POST", "/channels/create", { name: "engineering", subscribers: [realm.alice.userId, realm.bob.userId] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    engineering = created.body.id as number;
    const group = await realm.alice.call("POST", "/user_groups/create", { name: "backend", description: "Server people", members: [realm.alice.userId, realm.bob.userId] });
    assert.equal(group.status, 200, JSON.stringify(group.body));
    for (const [topic, content] of [["deploys", "Deploy at noon"], ["lunch", "Pizza on Friday?"]]) {
      const sent = await realm.bob.call("POST", "/messages", { type: "stream", to: engineering, topic, content });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    }
    const pages: Page[] = [];
    for (let i = 0; i < 2; i++) pages.push(await (await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" })).newPage());
    [alice, bob] = pages;
    await logIn(alice, realm.base, "alice@acme.test", "pw-alice-1");
    await logIn(bob, realm.base, "bob@acme.test", "pw-bob-1");
  });

  after(async () => {
    await realm?.close();
  });

  it("completes mentions, groups, channels, topics and emoji from the keyboard", async () => {
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/deploys`);
    await bob.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/deploys`);
    await messageWith(alice, "Deploy at noon").waitFor({ timeout: TIMEOUT });
    const box = alice.locator("#compose-content");
    const list = alice.getByRole("listbox", { name: "Suggestions" });

    await box.fill("Hey @bo");
    await list.getByRole("option", { name: /Bob Member/ }).waitFor({ timeout: TIMEOUT });
    assert.equal(await box.getAttribute("aria-activedescendant"), "compose-suggestions-0");
    assert.equal(await box.getAttribute("aria-controls"), "compose-suggestions");
    await box.press("Enter");
    await waitForCompose(alice, "Hey @**Bob Member** ");

    // Silent mention, picked with Tab; then a group, after moving down and back up.
    await box.pressSequentially("and @_ali");
    await list.getByRole("option", { name: /Alice Admin/ }).waitFor({ timeout: TIMEOUT });
    await box.press("Tab");
    await box.pressSequentially("and @back");
    await list.getByRole("option", { name: /backend/ }).waitFor({ timeout: TIMEOUT });
    await box.press("ArrowDown");
    await box.press("ArrowUp");
    assert.equal(await list.getByRole("option", { selected: true }).textContent(), "backendServer people");
    await box.press("Enter");
    await waitForCompose(alice, "Hey @**Bob Member** and @_**Alice Admin** and @*backend* ");

    // A channel, then a topic of it.
    await box.pressSequentially("see #eng");
    await list.getByRole("option", { name: "#engineering" }).waitFor({ timeout: TIMEOUT });
    await box.press("Enter");
    // The channel is in and its list closed before the next token starts: otherwise the option
    // waited for below could be the closing list's, and `>` would then be typed as a character
    // (a random failure under the suite's load).
    await waitForCompose(alice, "Hey @**Bob Member** and @_**Alice Admin** and @*backend* see #**engineering** ");
    await list.waitFor({ state: "detached", timeout: TIMEOUT });
    // `>` accepts a channel and goes on to its topics (as in Zulip).
    await box.pressSequentially("or #en");
    await list.getByRole("option", { name: "#engineering" }).waitFor({ timeout: TIMEOUT });
    await box.press(">");
    await waitForCompose(alice, "Hey @**Bob Member** and @_**Alice Admin** and @*backend* see #**engineering** or #**engineering>");
    await box.pressSequentially("lu");
    await list.getByRole("option", { name: /lunch/ }).waitFor({ timeout: TIMEOUT });
    await box.press("Enter");
    // The topic is in and the list closed before the next mention starts (under CI load the next
    // keystrokes could otherwise arrive while the list of the accepted topic was still closing).
    await waitForCompose(alice, "Hey @**Bob Member** and @_**Alice Admin** and @*backend* see #**engineering** or #**engineering>lunch** ");
    await list.waitFor({ state: "detached", timeout: TIMEOUT });

    // Escape closes the list and leaves the text alone.
    await box.pressSequentially("@al");
    await list.waitFor({ timeout: TIMEOUT });
    await box.press("Escape");
    await list.waitFor({ state: "detached", timeout: TIMEOUT });
    await box.press("Backspace");
    await box.press("Backspace");
    await box.press("Backspace");

    // Emoji: the server's full emoji data loads on the first `:`.
    await box.pressSequentially(":tad");
    await list.getByRole("option", { name: ":tada:" }).waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "compose-typeahead-emoji.png") });
    await box.press("Enter");
    await waitForCompose(alice, "Hey @**Bob Member** and @_**Alice Admin** and @*backend* see #**engineering** or #**engineering>lunch** :tada: ");

    await box.press("Control+Enter");
    const sent = messageWith(bob, "Hey");
    await sent.locator(".user-mention", { hasText: "Bob Member" }).waitFor({ timeout: TIMEOUT });
    await sent.locator(".user-group-mention", { hasText: "backend" }).waitFor({ timeout: TIMEOUT });
    await sent.locator("a.stream-topic", { hasText: "lunch" }).waitFor({ timeout: TIMEOUT });
    await sent.locator(".emoji").first().waitFor({ timeout: TIMEOUT });
    await bob.screenshot({ path: join(SCREENSHOTS, "compose-typeahead-received.png") });
  });

  it("completes the topic box from the channel's topics", async () => {
    const topic = alice.getByRole("combobox", { name: "Topic" });
    await topic.fill("");
    await topic.pressSequentially("lu");
    const list = alice.getByRole("listbox", { name: "Topics" });
    await list.getByRole("option", { name: "lunch" }).waitFor({ timeout: TIMEOUT });
    assert.equal(await topic.getAttribute("aria-expanded"), "true");
    await alice.screenshot({ path: join(SCREENSHOTS, "compose-topic-typeahead.png") });
    await topic.press("Enter");
    assert.equal(await topic.inputValue(), "lunch");
    await list.waitFor({ state: "detached", timeout: TIMEOUT });
    assert.equal(await topic.getAttribute("aria-expanded"), "false");
  });

  it("picks any emoji of the full set for a reaction and for the compose box", async () => {
    const pizza = messageWith(alice, "Pizza on Friday?");
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
    await bob.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
    await pizza.hover();
    await pizza.getByRole("button", { name: "Add reaction" }).click();
    const picker = alice.getByRole("dialog", { name: "Add a reaction" });
    await picker.getByRole("searchbox", { name: "Search emoji" }).fill("avoc");
    await picker.getByRole("menuitem", { name: "avocado" }).waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "emoji-picker-search.png") });
    await picker.getByRole("searchbox", { name: "Search emoji" }).press("Enter");
    await messageWith(bob, "Pizza on Friday?").locator('button.reaction[aria-label^="avocado: 1"]').waitFor({ timeout: TIMEOUT });

    await alice.locator("#compose-content").fill("Dessert");
    await alice.getByRole("button", { name: "Emoji", exact: true }).click();
    const composePicker = alice.getByRole("dialog", { name: "Insert an emoji" });
    // Keyboard only from here: the picker's search field has focus.
    await composePicker.getByRole("menuitem").nth(20).waitFor({ timeout: TIMEOUT });
    await alice.keyboard.type("cake");
    await composePicker.getByRole("menuitem", { name: "cake" }).first().waitFor({ timeout: TIMEOUT });
    await alice.keyboard.press("ArrowDown");
    await alice.keyboard.press("Enter");
    await alice.waitForFunction(() => /^Dessert :[a-z_]*cake[a-z_]*: $/.test((document.getElementById("compose-content") as HTMLTextAreaElement).value), undefined, { timeout: TIMEOUT });
    assert.equal(await composePicker.count(), 0);
    assert.match(await composeValue(alice), /cake/);
    await alice.locator("#compose-content").fill("");
  });

  it("keeps unsent text as a draft on the server, to restore or delete", async () => {
    // Alice's other device has the drafts view open: the draft shows up there live (drafts events).
    const otherDevice = await (await realm.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "light" })).newPage();
    await logIn(otherDevice, realm.base, "alice@acme.test", "pw-alice-1");
    await otherDevice.goto(`${realm.base}/#/drafts`);
    await otherDevice.getByText("No drafts.").waitFor({ timeout: TIMEOUT });
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
    await messageWith(alice, "Pizza on Friday?").waitFor({ timeout: TIMEOUT });
    await alice.locator("#compose-content").fill("Half-written thought");
    // Saved once typing pauses; the drafts event updates the count.
    await alice.getByRole("link", { name: "Drafts (1)" }).click();
    const drafts = alice.getByRole("list", { name: "Drafts" });
    const item = drafts.getByRole("listitem").filter({ hasText: "Half-written thought" });
    await item.waitFor({ timeout: TIMEOUT });
    await waitForText(item, "#engineering › lunch");
    await otherDevice.getByRole("list", { name: "Drafts" }).getByText("Half-written thought").waitFor({ timeout: TIMEOUT });
    const stored = await realm.alice.call("GET", "/drafts");
    assert.deepEqual((stored.body.drafts as Array<{ content: string; topic: string; type: string }>).map((d) => [d.type, d.topic, d.content]), [["stream", "lunch", "Half-written thought"]]);
    await alice.screenshot({ path: join(SCREENSHOTS, "drafts-view.png") });

    await item.getByRole("button", { name: "Restore" }).click();
    await waitForText(alice.locator("#narrow-title"), "lunch");
    await waitForCompose(alice, "Half-written thought");
    await alice.locator("#compose-content").press("Control+Enter");
    await messageWith(bob, "Half-written thought").waitFor({ timeout: TIMEOUT });
    await eventually("the sent draft is deleted", async () => ((await realm.alice.call("GET", "/drafts")).body.count as number) === 0);
    await otherDevice.getByText("No drafts.").waitFor({ timeout: TIMEOUT });
    await otherDevice.context().close();

    // Leaving the view at once still keeps the text; Delete removes it.
    await alice.locator("#compose-content").fill("Throwaway idea");
    await alice.getByRole("link", { name: /^Drafts/ }).click();
    const throwaway = drafts.getByRole("listitem").filter({ hasText: "Throwaway idea" });
    await throwaway.getByRole("button", { name: "Delete" }).click();
    await alice.getByText("No drafts.").waitFor({ timeout: TIMEOUT });
    assert.equal((await realm.alice.call("GET", "/drafts")).body.count, 0);
  });

  it("keeps drafts in the browser when draft synchronization is off", async () => {
    const off = await realm.bob.call("PATCH", "/settings", { enable_drafts_synchronization: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await bob.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
    await messageWith(bob, "Pizza on Friday?").waitFor({ timeout: TIMEOUT });
    await bob.locator("#compose-content").fill("Only on this laptop");
    await bob.getByRole("link", { name: "Drafts (1)" }).click();
    await bob.getByText("New drafts stay in this browser").waitFor({ timeout: TIMEOUT });
    const item = bob.getByRole("list", { name: "Drafts" }).getByRole("listitem").filter({ hasText: "Only on this laptop" });
    await waitForText(item, "#engineering › lunch");
    assert.equal((await realm.bob.call("GET", "/drafts")).body.count, 0);
    await item.getByRole("button", { name: "Restore" }).click();
    await waitForCompose(bob, "Only on this laptop");
    await bob.locator("#compose-content").press("Control+Enter");
    await messageWith(bob, "Only on this laptop").waitFor({ timeout: TIMEOUT });
    await bob.getByRole("link", { name: "Drafts", exact: true }).click();
    await bob.getByText("No drafts.").waitFor({ timeout: TIMEOUT });
    await bob.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
  });

  it("sets a reminder on a message (POST /reminders)", async () => {
    await alice.goto(`${realm.base}/#/narrow/channel/${engineering}-engineering/topic/lunch`);
    const pizza = messageWith(alice, "Pizza on Friday?");
    await pizza.hover();
    await pizza.getByRole("button", { name: "Remind me about this" }).click();
    const dialog = alice.getByRole("dialog", { name: "Remind me about this message" });
    await dialog.getByRole("button", { name: "Tomorrow at 9:00" }).click();
    const chosen = await dialog.getByLabel("Date and time").inputValue();
    assert.match(chosen, /T09:00$/);
    await dialog.getByLabel("Note (optional)").fill("bring cash");
    await alice.screenshot({ path: join(SCREENSHOTS, "message-reminder.png") });
    await dialog.getByRole("button", { name: "Set reminder" }).click();
    await dialog.waitFor({ state: "detached", timeout: TIMEOUT });
    await pizza.hover(); // the toolbar, with its status line, shows on hover
    await pizza.getByRole("status").getByText(/Reminder set for/).waitFor({ timeout: TIMEOUT });
    const reminders = (await realm.alice.call("GET", "/reminders")).body.reminders as Array<{ reminder_target_message_id: number; scheduled_delivery_timestamp: number }>;
    assert.equal(reminders.length, 1);
    assert.equal(reminders[0].scheduled_delivery_timestamp, await alice.evaluate((local) => new Date(local).getTime() / 1000, chosen));
  });

  it("schedules a message from compose, lists it with the reminder, edits it and sends it now", async () => {
    await alice.locator("#compose-content").fill("Standup notes");
    await alice.getByRole("button", { name: "Schedule", exact: true }).click();
    const dialog = alice.getByRole("dialog", { name: "Schedule message" });
    await dialog.getByRole("button", { name: "Tomorrow at 9:00" }).click();
    await dialog.getByRole("button", { name: "Schedule", exact: true }).click();
    await alice.locator(".compose-notice").getByText(/Scheduled for/).waitFor({ timeout: TIMEOUT });
    await waitForCompose(alice, "");
    await alice.getByRole("link", { name: "Scheduled (1)" }).click();

    // (The only one: while it is edited, its text is in a textarea, which hasText does not see.)
    const scheduled = alice.getByRole("list", { name: "Scheduled messages" }).getByRole("listitem");
    await waitForText(scheduled, "Standup notes");
    await waitForText(scheduled, "#engineering › lunch");
    await alice.getByRole("list", { name: "Reminders" }).getByRole("listitem").filter({ hasText: "bring cash" }).waitFor({ timeout: TIMEOUT });
    await alice.screenshot({ path: join(SCREENSHOTS, "scheduled-messages.png") });

    // Edit the text and the time (the list follows the update event).
    await scheduled.getByRole("button", { name: "Edit" }).click();
    await scheduled.getByLabel("Message").fill("Standup notes, revised");
    const later = await alice.evaluate(() => {
      const d = new Date();
      d.setDate(d.getDate() + 2);
      d.setHours(10, 30, 0, 0);
      // (No helper function here: tsx would wrap it in a __name() the page does not have.)
      return { input: `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}T10:30`, seconds: d.getTime() / 1000 };
    });
    await scheduled.getByLabel("Send at").fill(later.input);
    await scheduled.getByRole("button", { name: "Save" }).click();
    const revised = alice.getByRole("list", { name: "Scheduled messages" }).getByRole("listitem").filter({ hasText: "Standup notes, revised" });
    await revised.getByRole("button", { name: "Send now" }).waitFor({ timeout: TIMEOUT });
    const stored = (await realm.alice.call("GET", "/scheduled_messages")).body.scheduled_messages as Array<{ scheduled_delivery_timestamp: number; content: string }>;
    assert.deepEqual(stored.map((m) => [m.content, m.scheduled_delivery_timestamp]), [["Standup notes, revised", later.seconds]]);

    await revised.getByRole("button", { name: "Send now" }).click();
    await messageWith(bob, "Standup notes, revised").waitFor({ timeout: TIMEOUT });
    await alice.getByText("No scheduled messages.").waitFor({ timeout: TIMEOUT });

    // One made elsewhere (the API) shows up live, and Delete removes it; so does the reminder's.
    const made = await realm.alice.call("POST", "/scheduled_messages", { type: "stream", to: engineering, topic: "lunch", content: "From the API", scheduled_delivery_timestamp: later.seconds });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const fromApi = alice.getByRole("list", { name: "Scheduled messages" }).getByRole("listitem").filter({ hasText: "From the API" });
    await fromApi.getByRole("button", { name: "Delete" }).click();
    await alice.getByText("No scheduled messages.").waitFor({ timeout: TIMEOUT });
    await alice.getByRole("list", { name: "Reminders" }).getByRole("button", { name: "Delete" }).click();
    await alice.getByText("No reminders.").waitFor({ timeout: TIMEOUT });
    assert.equal(((await realm.alice.call("GET", "/reminders")).body.reminders as unknown[]).length, 0);
  });
});
