/**
 * Outgoing-webhook bots (bot_type 3, issue 17) against a local HTTP server: mentions and direct
 * messages POST Zulip's payload after the commit, the answer's `content` comes back as the bot,
 * failures answer "Failure! …" and tell the owner, time-outs and refused connections are retried.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, it } from "node:test";
import { MAX_RETRIES } from "../../src/actions/outgoing-webhooks/deliver.js";
import { OutgoingWebhookRunner } from "../../src/scheduler/outgoing-webhook-queue.js";
import { eventsOf } from "../helpers/channels.js";
import { createChannel } from "../helpers/messages.js";
import { createTestRealm, testDeps, type TestRealm } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

type Handler = (body: string, res: ServerResponse) => void;

interface Hook {
  server: Server;
  url: string;
  calls: Array<{ path: string; body: string; contentType: string }>;
  handlers: Map<string, Handler>;
}

async function startHook(): Promise<Hook> {
  const calls: Hook["calls"] = [];
  const handlers = new Map<string, Handler>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      calls.push({ path: req.url ?? "", body, contentType: String(req.headers["content-type"]) });
      const handler = handlers.get(req.url ?? "") ?? ((_b, r) => r.writeHead(404).end());
      handler(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, handlers };
}

const json = (value: unknown): Handler => (_body, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));

for (const kind of STORE_KINDS) {
  describe(`outgoing-webhook bots [${kind}]`, () => {
    let t: TestRealm;
    let hook: Hook;
    let runner: OutgoingWebhookRunner;
    let channelId: number;
    const errors: unknown[] = [];

    beforeEach(async () => {
      // The stand-in bot server listens on loopback, which only an operator may allow.
      t = await createTestRealm(kind, { outgoingWebhookTimeoutSeconds: 1, outgoingWebhookAllowPrivate: true });
      hook = await startHook();
      runner = new OutgoingWebhookRunner(t.deps, { onError: (err) => errors.push(err) });
      t.deps.outgoingWebhooks = runner;
      channelId = await createChannel(t, "Verona", ["hamlet", "othello", "iago"]);
    });
    afterEach(async () => {
      await runner.idle();
      await new Promise((resolve) => hook.server.close(resolve));
      await t.close();
      assert.deepEqual(errors, []);
    });

    async function makeBot(path: string, extra: Record<string, unknown> = {}): Promise<{ id: number; email: string; token: string }> {
      const res = await t.as("hamlet").post("/bots", { full_name: "Hook Bot", short_name: "hook", bot_type: 3, payload_url: `${hook.url}${path}`, ...extra });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const bots = (await t.as("hamlet").post("/register", { fetch_event_types: ["realm_bot"] })).body.realm_bots as Array<{ user_id: number; email: string; services: Array<{ token: string; base_url: string; interface: number }> }>;
      const bot = bots.find((b) => b.user_id === res.body.user_id)!;
      assert.equal(bot.services[0].base_url, `${hook.url}${path}`);
      return { id: bot.user_id, email: bot.email, token: bot.services[0].token };
    }

    /** Messages the bot sent, once each (a message goes out as one event per set of flags). */
    const messagesFrom = (senderId: number) => {
      const all = eventsOf(t, "message").map((e) => e.event.message as { id: number; sender_id: number; content: string; type: string; display_recipient: unknown; subject: string });
      return [...new Map(all.filter((m) => m.sender_id === senderId).map((m) => [m.id, m])).values()];
    };

    it("POSTs Zulip's payload when mentioned, after the send returned, and posts the answer's content back in the topic", async () => {
      let release: () => void = () => undefined;
      hook.handlers.set("/ok", (_body, res) => {
        release = () => json({ content: "Hello **back**" })("", res);
      });
      const bot = await makeBot("/ok");
      const sent = await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "greetings", content: "@**Hook Bot** hi there" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      // The send has answered; the bot's server still holds its answer.
      while (hook.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const payload = JSON.parse(hook.calls[0].body);
      assert.equal(hook.calls[0].contentType, "application/json");
      assert.equal(payload.token, bot.token);
      assert.equal(payload.trigger, "mention");
      assert.equal(payload.data, "@**Hook Bot** hi there");
      assert.equal(payload.bot_email, bot.email);
      assert.equal(payload.bot_full_name, "Hook Bot");
      assert.equal(payload.message.id, sent.body.id);
      assert.equal(payload.message.content, "@**Hook Bot** hi there");
      assert.match(payload.message.rendered_content, /user-mention/);
      release();
      await runner.idle();
      const replies = messagesFrom(bot.id);
      assert.equal(replies.length, 1, JSON.stringify(replies));
      assert.equal(replies[0].subject, "greetings");
      assert.match(replies[0].content, /Hello <strong>back<\/strong>/);
    });

    it("never calls a private or loopback address unless the operator allows it (request forgery)", async () => {
      hook.handlers.set("/internal", json({ content: "should not be reached" }));
      const bot = await makeBot("/internal");
      t.deps.config.outgoingWebhookAllowPrivate = false;
      await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "probe", content: "@**Hook Bot** hi" });
      await runner.idle();
      assert.equal(hook.calls.length, 0);
      // The failure is reported where Zulip reports it: in the conversation and to the bot's owner.
      const notices = eventsOf(t, "message").map((e) => String((e.event.message as { content: string }).content)).filter((c) => c.includes("private network address"));
      assert.ok(notices.length > 0);
      assert.equal(bot.id > 0, true);
    });

    it("refuses a host name that resolves to loopback, checked in the connection itself (DNS rebinding)", async () => {
      hook.handlers.set("/named", json({ content: "should not be reached" }));
      const port = new URL(hook.url).port;
      const res = await t.as("hamlet").post("/bots", { full_name: "Named Bot", short_name: "named", bot_type: 3, payload_url: `http://localhost:${port}/named` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      t.deps.config.outgoingWebhookAllowPrivate = false;
      await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "probe", content: "@**Named Bot** hi" });
      await runner.idle();
      assert.equal(hook.calls.length, 0);
      const notices = eventsOf(t, "message").map((e) => String((e.event.message as { content: string }).content));
      assert.ok(notices.some((c) => c.includes("Bot is unavailable")), JSON.stringify(notices));
      assert.ok(notices.some((c) => /private network address \((127\.0\.0\.1|::1)\)/.test(c)), JSON.stringify(notices));
    });

    it("keeps queued calls in the store: a server that stops before sending loses none, and two servers send each once", async () => {
      hook.handlers.set("/durable", json({ content: "delivered late" }));
      const bot = await makeBot("/durable");
      // The first server queues the calls, then stops before sending any (a crash or restart).
      t.deps.outgoingWebhooks = { wake: () => undefined };
      for (const n of [1, 2, 3]) {
        const sent = await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "restart", content: `@**Hook Bot** call ${n}` });
        assert.equal(sent.status, 200);
      }
      assert.equal(hook.calls.length, 0);

      // Two new server processes on the same store, each with its own runner, start at once.
      const config = { outgoingWebhookTimeoutSeconds: 1, outgoingWebhookAllowPrivate: true };
      const second = new OutgoingWebhookRunner(testDeps(t.deps.store, config, t.clock), { onError: (err) => errors.push(err) });
      const third = new OutgoingWebhookRunner(testDeps(t.deps.store, config, t.clock), { onError: (err) => errors.push(err) });
      second.start();
      third.start();
      await Promise.all([second.stop(), third.stop()]);
      assert.deepEqual(hook.calls.map((c) => JSON.parse(c.body).data).sort(), ["@**Hook Bot** call 1", "@**Hook Bot** call 2", "@**Hook Bot** call 3"]);
      assert.equal(await second.nextDue(), null, "nothing left queued");
      const replies = (await t.as("othello").get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: JSON.stringify([{ operator: "sender", operand: bot.id }]) })).body.messages;
      assert.equal(replies.length, 3);
    });

    it("answers direct messages to every participant, and stays quiet when no response is required", async () => {
      hook.handlers.set("/dm", json({ content: "got it" }));
      const bot = await makeBot("/dm");
      await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([bot.id, t.users.iago.id]), content: "ping" });
      await runner.idle();
      assert.equal(JSON.parse(hook.calls[0].body).trigger, "direct_message");
      const reply = messagesFrom(bot.id)[0];
      assert.equal(reply.type, "private");
      assert.deepEqual((reply.display_recipient as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b), [t.users.iago.id, t.users.othello.id, bot.id].sort((a, b) => a - b));
      hook.handlers.set("/dm", json({ response_not_required: true }));
      t.published.length = 0;
      await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([bot.id]), content: "again" });
      await runner.idle();
      assert.equal(hook.calls.length, 2);
      assert.deepEqual(messagesFrom(bot.id), []);
    });

    it("is not called for unmentioned channel messages, silent mentions or messages from bots", async () => {
      hook.handlers.set("/quiet", json({ content: "should not happen" }));
      const bot = await makeBot("/quiet");
      await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "t", content: "no mention here" });
      await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "t", content: "@_**Hook Bot** silently" });
      await t.as("bot").post("/messages", { type: "stream", to: channelId, topic: "t", content: "@**Hook Bot** from a bot" });
      await runner.idle();
      assert.equal(hook.calls.length, 0);
      assert.ok(bot.id > 0);
    });

    it("reports an error status in the conversation and to the owner, without retrying", async () => {
      hook.handlers.set("/broken", (_b, res) => res.writeHead(500).end("boom"));
      const bot = await makeBot("/broken");
      t.published.length = 0;
      await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([bot.id]), content: "hello?" });
      await runner.idle();
      assert.equal(hook.calls.length, 1);
      const sent = messagesFrom(bot.id);
      assert.match(sent[0].content, /Failure! Third party responded with 500/);
      const toOwner = sent.find((m) => (m.display_recipient as Array<{ id: number }>).some((r) => r.id === t.users.hamlet.id))!;
      assert.match(toOwner.content, /triggered an outgoing webhook/);
      assert.match(toOwner.content, /status code <em>500<\/em>/);
    });

    it("retries a refused connection and a time-out, then says the bot is unavailable", async () => {
      hook.handlers.set("/slow", () => undefined); // never answers: every attempt times out
      const slow = await makeBot("/slow");
      t.published.length = 0;
      await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([slow.id]), content: "anyone?" });
      await runner.idle();
      assert.equal(hook.calls.length, MAX_RETRIES + 1);
      const notices = messagesFrom(slow.id).map((m) => m.content);
      assert.ok(notices.some((c) => /Failure! Bot is unavailable/.test(c)));
      assert.ok(notices.some((c) => /Request timed out after 1 seconds\./.test(c)));
    });

    it("sends the Slack-compatible form for interface 2 and reads its `text`", async () => {
      hook.handlers.set("/slack", json({ text: "slack says hi" }));
      const bot = await makeBot("/slack", { interface_type: 2 });
      await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "s", content: "@**Hook Bot** yo" });
      await runner.idle();
      const form = new URLSearchParams(hook.calls[0].body);
      assert.equal(form.get("token"), bot.token);
      assert.equal(form.get("channel_name"), "Verona");
      assert.equal(form.get("trigger_word"), "mention");
      assert.match(messagesFrom(bot.id)[0].content, /slack says hi/);
    });

    it("needs a URL for outgoing-webhook bots", async () => {
      assertError(await t.as("hamlet").post("/bots", { full_name: "No URL", short_name: "nourl", bot_type: 3 }), "payload_url is not a URL");
      assertError(await t.as("hamlet").post("/bots", { full_name: "Bad URL", short_name: "badurl", bot_type: 3, payload_url: "ftp://x" }), "payload_url is not a URL");
      assert.equal((await t.as("hamlet").post("/bots", { full_name: "Quoted", short_name: "quoted", bot_type: 3, payload_url: JSON.stringify(`${hook.url}/q`) })).status, 200);
    });

    it("PATCH /bots/{bot_id} moves the service to a new URL and payload format, with realm_bot update to the bot's owner", async () => {
      hook.handlers.set("/old", json({ content: "old" }));
      hook.handlers.set("/new", (_body, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: "new slack" })));
      const bot = await makeBot("/old");
      const queue = (await t.as("hamlet").post("/register", { event_types: ["realm_bot"] })).body.queue_id;

      // Zulip's web app sends the URL JSON-encoded; the answer echoes the service parameters.
      const res = await t.as("hamlet").patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(`${hook.url}/new`), service_interface: 2 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.service_payload_url, `${hook.url}/new`);
      assert.equal(res.body.service_interface, 2);
      assert.equal(res.body.config_data, null);
      const events = (await t.as("hamlet").get("/events", { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
      assert.deepEqual(events.map((e: Record<string, unknown>) => ({ type: e.type, op: e.op, bot: e.bot })), [
        { type: "realm_bot", op: "update", bot: { user_id: bot.id, services: [{ base_url: `${hook.url}/new`, interface: 2, token: bot.token }] } },
      ]);
      const listed = (await t.as("hamlet").post("/register", { fetch_event_types: ["realm_bot"] })).body.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id);
      assert.deepEqual(listed.services, [{ base_url: `${hook.url}/new`, interface: 2, token: bot.token }]);

      // The next mention goes to the new URL in the new format.
      await t.as("othello").post("/messages", { type: "stream", to: channelId, topic: "moved", content: "@**Hook Bot** where are you" });
      await runner.idle();
      assert.deepEqual(hook.calls.map((c) => c.path), ["/new"]);
      assert.equal(new URLSearchParams(hook.calls[0].body).get("token"), bot.token);
      assert.match(messagesFrom(bot.id)[0].content, /new slack/);

      // Without service_interface, the format is Zulip's default, generic (1); a plain URL is taken too.
      const plain = await t.as("hamlet").patch(`/bots/${bot.id}`, { service_payload_url: `${hook.url}/old` });
      assert.equal(plain.body.service_interface, 1);
      // Other changes leave the service alone and answer service_payload_url null.
      const renamed = await t.as("hamlet").patch(`/bots/${bot.id}`, { full_name: "Hook Bot 2" });
      assert.equal(renamed.body.service_payload_url, null);
      const after = (await t.as("hamlet").post("/register", { fetch_event_types: ["realm_bot"] })).body.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id);
      assert.deepEqual(after.services, [{ base_url: `${hook.url}/old`, interface: 1, token: bot.token }]);
    });

    it("PATCH /bots/{bot_id} refuses a bad URL or format, a bot without a service, and callers who neither own the bot nor administer", async () => {
      const bot = await makeBot("/x");
      assertError(await t.as("hamlet").patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify("ftp://x") }), "service_payload_url is not a URL");
      assertError(await t.as("hamlet").patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(`${hook.url}/y`), service_interface: 7 }), "Invalid interface type");
      const generic = await t.as("hamlet").post("/bots", { full_name: "Plain Bot", short_name: "plain", bot_type: 1 });
      assertError(await t.as("hamlet").patch(`/bots/${generic.body.user_id}`, { service_payload_url: JSON.stringify(`${hook.url}/y`) }), "This bot has no outgoing webhook service");
      assertError(await t.as("othello").patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(`${hook.url}/y`) }), "Insufficient permission");
      assertError(await t.as("polonius").patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(`${hook.url}/y`) }), "Not allowed for guest users");
      // Nothing changed by the refusals; an administrator may change it.
      const unchanged = (await t.as("hamlet").post("/register", { fetch_event_types: ["realm_bot"] })).body.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id);
      assert.equal(unchanged.services[0].base_url, `${hook.url}/x`);
      assert.equal((await t.as("iago").patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify(`${hook.url}/z`) })).status, 200);
    });
  });
}
