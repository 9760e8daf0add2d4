/**
 * Idleness across processes (issue 19 item 5): two app instances over one PostgreSQL store, each
 * with its own queues and a Redis event bus, as two server processes are. A user whose only event
 * queue lives in the other instance is not idle while their presence is fresh: no missed-message
 * email. The queue's use is recorded in the store at register and then at most once a minute
 * (not per poll). Skips visibly unless TEST_DATABASE_URL and REDIS_URL are set (CI sets both).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { RECORD_EVERY_SECONDS } from "../../src/actions/notifications/queue-activity.js";
import { buildApp } from "../../src/app.js";
import { testStoreUrls } from "../../src/config.js";
import type { AppDeps } from "../../src/deps.js";
import { createEventSystem, type EventSystem } from "../../src/events/setup.js";
import { transaction } from "../../src/store/db.js";
import { upsertPresence } from "../../src/store/presence.js";
import { createTestRealm, formEncode, type TestRealm, type UserName } from "../helpers/fixtures.js";

const urls = testStoreUrls();

describe("idleness sees queues on every process [postgres + redis]", { skip: !urls.postgres || !urls.redis ? "needs TEST_DATABASE_URL and REDIS_URL" : false }, () => {
  let t: TestRealm;
  const systems: EventSystem[] = [];
  const apps: FastifyInstance[] = [];
  const deps: AppDeps[] = [];

  before(async () => {
    t = await createTestRealm("postgres", { redisUrl: urls.redis });
    const deployment = `idle-${randomBytes(4).toString("hex")}`;
    for (let i = 0; i < 2; i++) {
      const system = createEventSystem(t.deps.config, deployment, { onError: () => {} });
      await system.ready(5_000);
      systems.push(system);
      deps.push({ ...t.deps, events: system.bus, queues: system.queues });
      apps.push(await buildApp(deps[i], { logger: false }));
    }
  });
  after(async () => {
    for (const app of apps) await app.close();
    for (const system of systems) await (system.bus as { close?: () => Promise<void> }).close?.();
    await t.close();
  });

  /** A call to instance `i` as `who`. */
  async function call(i: number, who: UserName, method: "GET" | "POST", path: string, params: Record<string, unknown> = {}) {
    const user = t.users[who];
    const headers = { host: t.host, authorization: "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64") };
    const res =
      method === "GET"
        ? await apps[i].inject({ method, url: `/api/v1${path}?${formEncode(params)}`, headers })
        : await apps[i].inject({ method, url: `/api/v1${path}`, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, payload: formEncode(params) });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }
  const emailsPending = async (userId: number) =>
    (await t.deps.store.db.selectFrom("pending_notifications").selectAll().where("user_id", "=", userId).where("kind", "=", "email").execute()).length;
  const recordedUntil = async (userId: number) =>
    Number((await t.deps.store.db.selectFrom("user_message_queues").select("until").where("user_id", "=", userId).executeTakeFirst())?.until ?? 0);
  const activeNow = (who: UserName) =>
    transaction(t.deps.store, (tx) => upsertPresence(tx, { user_id: t.users[who].id, realm_id: t.realmId, last_active_time: t.clock.seconds, last_connected_time: t.clock.seconds, last_update_id: 1 }));

  it("a queue on the other process keeps an active user from being emailed", async () => {
    const othello = t.users.othello.id;
    await activeNow("othello");
    // No queue anywhere yet: idle, so a DM sent through instance 0 queues an email.
    await call(0, "hamlet", "POST", "/messages", { type: "direct", to: [othello], content: "anyone there?" });
    assert.equal(await emailsPending(othello), 1);
    await t.deps.store.db.deleteFrom("pending_notifications").execute();

    const reg = await call(1, "othello", "POST", "/register", { event_types: ["message"] });
    assert.equal(deps[0].queues.hasQueueFor(othello, "message"), false, "instance 0 holds no queue of othello");
    await call(0, "hamlet", "POST", "/messages", { type: "direct", to: [othello], content: "you are on the other process" });
    assert.equal(await emailsPending(othello), 0, "not idle: instance 1 holds a message queue");
    // The message reached the queue on instance 1 through Redis.
    const polled = await call(1, "othello", "GET", "/events", { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.ok(polled.events.some((e: { type: string }) => e.type === "message"));

    // Presence gone stale: idle again, queue or not (Zulip's rule).
    t.clock.seconds += 200;
    await call(0, "hamlet", "POST", "/messages", { type: "direct", to: [othello], content: "you left" });
    assert.equal(await emailsPending(othello), 1);
  });

  it("records a queue's use at most once a minute, and forgets it after its idle timeout", async () => {
    const cordelia = t.users.cordelia.id;
    const reg = await call(1, "cordelia", "POST", "/register", { event_types: ["message"] });
    const first = await recordedUntil(cordelia);
    assert.equal(first, t.clock.seconds + reg.idle_queue_timeout_secs);
    for (let i = 0; i < 5; i++) {
      t.clock.seconds += 10;
      await call(1, "cordelia", "GET", "/events", { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    }
    assert.equal(await recordedUntil(cordelia), first, "polls within a minute write nothing");
    t.clock.seconds += RECORD_EVERY_SECONDS;
    await call(1, "cordelia", "GET", "/events", { queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(await recordedUntil(cordelia), t.clock.seconds + reg.idle_queue_timeout_secs);

    // A register that does not take messages records nothing.
    const before = await recordedUntil(t.users.iago.id);
    await call(1, "iago", "POST", "/register", { event_types: ["presence"] });
    assert.equal(await recordedUntil(t.users.iago.id), before);

    // Past the recorded time the queue counts as gone on the other process: idle again.
    await activeNow("cordelia");
    t.clock.seconds = (await recordedUntil(cordelia)) + 1;
    await activeNow("cordelia");
    await call(0, "hamlet", "POST", "/messages", { type: "direct", to: [cordelia], content: "still there?" });
    assert.equal(await emailsPending(cordelia), 1);
  });
});
