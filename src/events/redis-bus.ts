/**
 * Cross-process event fan-out through Redis pub/sub (REDIS_URL set). Users are spread over a fixed
 * number of shard channels; a process subscribes only to the shards of users it holds queues for,
 * so it receives (roughly) only what its queues need. Every delivery, local ones included, goes
 * through Redis, which keeps one order per user.
 *
 * Routing of GET /events: a queue lives in the process that created it. Put the processes behind
 * a balancer that routes by user (as Zulip routes by user to Tornado shards; deploy/nginx); a poll
 * that lands elsewhere gets BAD_EVENT_QUEUE_ID and the client re-registers there, which is always
 * safe.
 *
 * Outages (issue 18, item 4): Redis pub/sub keeps nothing for a subscriber that is away, so while
 * either connection is down no queue here can be promised its events. The moment one drops, every
 * queue of this process is discarded — parked and later polls get BAD_EVENT_QUEUE_ID and clients
 * register again, Zulip's recovery path — and the bus reports itself unavailable (the router then
 * answers writes and registers 503 at once instead of letting them hang). Once both connections
 * are back and subscribed, it is available again. Each change is logged once.
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { serviceUnavailable } from "../errors.js";
import { newRedisClient, redisNamespace } from "../lib/redis-keys.js";
import type { ChatEvent, EventBus } from "./bus.js";
import type { QueueRegistry } from "./registry.js";
import { compareIds, entriesAfter, isSavedPositions, PUBLISH_SCRIPT, redisNowMs, STREAM_RETAIN_MS, streamTails, type SavedPositions } from "./redis-streams.js";

export const SHARD_COUNT = 64;
const FLUSH_TIMEOUT_MS = 5_000;
/** A Redis that accepts connections but stops answering fails a command after this long. */
const COMMAND_TIMEOUT_MS = 2_000;
/** Saved queues are restored only if the restart took this much less than the streams keep. */
const RESTORE_MARGIN_MS = 10_000;

const shardOf = (userId: number) => userId % SHARD_COUNT;

export interface RedisBusHooks {
  /** The bus went down (`reason`, and how many queues were discarded) or came back (reason null). */
  onAvailability?(available: boolean, reason: string | null, discardedQueues: number): void;
  /** An event reached this process's queues this long after it was published (GET /metrics). */
  onDelivered?(event: ChatEvent, latencyMs: number): void;
  /** Saved queues could not be caught up (`reason`) and were dropped; their clients re-register. */
  onRestoreDropped?(reason: string, discardedQueues: number): void;
}

export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private subscribed = new Set<number>();
  private syncing: Promise<void> = Promise.resolve();
  /** This process's own channel: a token sent on it returns after everything published before it. */
  private readonly flushChannel: string;
  private readonly channelPrefix: string;
  private readonly streamPrefix: string;
  /** Per subscribed shard, the stream id of the last entry delivered (or seen before subscribing). */
  private readonly lastIds = new Map<number, string>();
  /** Shards being caught up after a restore: live messages wait here meanwhile. */
  private readonly replaying = new Map<number, Array<[string, string]>>();
  private readonly flushWaiters = new Map<string, () => void>();
  private readonly connected = { pub: false, sub: false };
  /** "starting" until both connections are first ready; "down" after one dropped until both are back. */
  private state: "starting" | "up" | "down" = "starting";
  private downReason = "connecting to Redis";
  private lastError: string | null = null;
  private closing = false;
  /** An outage was logged and its end is still to be. */
  private outageAnnounced = false;
  private readonly upWaiters: Array<() => void> = [];

  constructor(
    url: string,
    deploymentId: string,
    private readonly registry: QueueRegistry,
    private readonly onError: (err: unknown) => void,
    private readonly hooks: RedisBusHooks = {},
  ) {
    this.channelPrefix = `${redisNamespace(deploymentId)}events:`;
    this.streamPrefix = `${redisNamespace(deploymentId)}stream:`;
    this.flushChannel = `${redisNamespace(deploymentId)}flush:${randomUUID()}`;
    // No offline queue and no retries: a command while Redis is away fails at once rather than
    // waiting for a reconnection (a send used to hang up to 9 s); subscriptions are redone here.
    const options = { lazyConnect: false, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: COMMAND_TIMEOUT_MS };
    this.pub = newRedisClient(url, options);
    this.sub = newRedisClient(url, { ...options, autoResubscribe: false });
    for (const [name, client] of [["pub", this.pub], ["sub", this.sub]] as const) {
      // Connection errors repeat on every reconnection attempt: remembered for the one log line.
      client.on("error", (err: Error) => (this.lastError = err.message));
      client.on("ready", () => this.connectionUp(name));
      client.on("close", () => this.connectionDown(name));
    }
    this.sub.on("message", (channel: string, payload: string) => this.receive(channel, payload));
    registry.onUsersChanged = () => void this.whenSubscribed().catch(() => undefined);
  }

  /** Why delivery cannot be guaranteed right now; null while it can. */
  unavailable(): string | null {
    return this.state === "up" ? null : this.downReason;
  }

  async ping(): Promise<void> {
    const reason = this.unavailable();
    if (reason) throw new Error(reason);
    await this.pub.ping();
  }

  /** Resolves once both connections are up, or rejects after `timeoutMs` naming the last error. */
  ready(timeoutMs: number): Promise<void> {
    if (this.state === "up") return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(this.lastError ?? `no answer within ${timeoutMs} ms`)), timeoutMs);
      this.upWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  publish(event: ChatEvent, userIds: readonly number[]): void {
    // Down: this process's queues are already discarded, and the other processes' were too when
    // their own connections dropped; their clients re-register and read the committed state.
    if (this.state !== "up") return;
    const byShard = new Map<number, number[]>();
    for (const id of userIds) byShard.set(shardOf(id), [...(byShard.get(shardOf(id)) ?? []), id]);
    const pipeline = this.pub.pipeline();
    const publishedAt = Date.now();
    for (const [shard, ids] of byShard) {
      const payload = JSON.stringify({ event, userIds: ids, publishedAt });
      pipeline.eval(PUBLISH_SCRIPT, 2, this.streamPrefix + shard, this.channelPrefix + shard, payload, STREAM_RETAIN_MS);
    }
    pipeline
      .exec()
      .then((results) => {
        const failed = (results ?? []).find(([err]) => err);
        if (failed) this.goDown(`publishing an event failed: ${(failed[0] as Error).message}`);
      })
      .catch((err: Error) => this.goDown(`publishing an event failed: ${err.message}`));
  }

  /**
   * Brings the Redis subscriptions in line with the users holding queues here; resolves once
   * Redis confirmed them, so a register can read its initial state knowing no event will be missed.
   * Rejects (503) while Redis is unavailable: a queue made then could not be promised its events.
   */
  whenSubscribed(): Promise<void> {
    const run = this.syncing.then(() => this.syncSubscriptions());
    this.syncing = run.catch(() => undefined);
    return run;
  }

  private async syncSubscriptions(): Promise<void> {
    if (this.state === "down") throw serviceUnavailable("Redis", this.downReason);
    const wanted = new Set(this.registry.userIds().map(shardOf));
    const add = [...wanted].filter((s) => !this.subscribed.has(s));
    const drop = [...this.subscribed].filter((s) => !wanted.has(s));
    try {
      // Where each new shard's deliveries start: its stream's end before the subscription.
      const tails = await streamTails(this.pub, add.map((s) => this.streamPrefix + s));
      add.forEach((s, i) => {
        if (!this.lastIds.has(s) && tails[i]) this.lastIds.set(s, tails[i]);
      });
      if (add.length) await this.sub.subscribe(...add.map((s) => this.channelPrefix + s));
      if (drop.length) await this.sub.unsubscribe(...drop.map((s) => this.channelPrefix + s));
      for (const s of drop) this.lastIds.delete(s);
    } catch (err) {
      const reason = `subscribing failed: ${(err as Error).message}`;
      this.goDown(reason);
      throw serviceUnavailable("Redis", reason);
    }
    this.subscribed = wanted;
  }

  /** Where this process's deliveries stand, saved with its queues at shutdown. */
  async savedState(): Promise<SavedPositions | null> {
    if (this.state !== "up") return null;
    try {
      const positions = Object.fromEntries([...this.subscribed].flatMap((s) => (this.lastIds.has(s) ? [[String(s), this.lastIds.get(s) as string]] : [])));
      return { savedAtMs: await redisNowMs(this.pub), positions };
    } catch {
      return null; // the next process will drop the queues rather than guess
    }
  }

  /**
   * After the previous process's queues were loaded: subscribes for them and replays what was
   * published since that process saved them, then goes live. Queues that cannot be caught up (no
   * saved position, or a restart longer than the streams keep) are dropped, and their clients
   * re-register.
   */
  async restore(state: unknown): Promise<void> {
    const positions = isSavedPositions(state) ? state.positions : {};
    // Set before anything waits, so a subscription started meanwhile neither resets the position
    // nor delivers past the replay.
    for (const [shard, id] of Object.entries(positions)) {
      this.lastIds.set(Number(shard), id);
      this.replaying.set(Number(shard), []);
    }
    try {
      const age = isSavedPositions(state) ? (await redisNowMs(this.pub)) - state.savedAtMs : Infinity;
      if (age > STREAM_RETAIN_MS - RESTORE_MARGIN_MS) {
        const reason = isSavedPositions(state) ? `the restart took ${Math.round(age / 1000)} s, longer than events are kept` : "they were saved without their event positions";
        this.hooks.onRestoreDropped?.(reason, this.registry.discardAll());
        return;
      }
      await this.whenSubscribed();
      for (const [shard, after] of Object.entries(positions)) {
        for (const [id, payload] of await entriesAfter(this.pub, this.streamPrefix + shard, after)) this.deliverEntry(Number(shard), id, payload);
        const waiting = this.replaying.get(Number(shard)) ?? [];
        this.replaying.delete(Number(shard));
        for (const [id, payload] of waiting) this.deliverEntry(Number(shard), id, payload);
      }
    } catch (err) {
      this.hooks.onRestoreDropped?.(`catching up failed: ${(err as Error).message}`, this.registry.discardAll());
    } finally {
      this.replaying.clear();
    }
  }

  /**
   * Redis delivers one connection's publishes to a subscriber in order, so once a token published
   * now comes back, every event published earlier has reached the registry. Returns at once while
   * Redis is down: nothing more can arrive.
   */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
    if (this.state !== "up") return;
    const token = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const returned = new Promise<void>((resolve) => {
      this.flushWaiters.set(token, resolve);
      // A Redis that stopped answering must not hold shutdown forever.
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await this.sub.subscribe(this.flushChannel);
      await this.pub.publish(this.flushChannel, token);
      await returned;
    } catch {
      // Redis went away meanwhile: its queues are being discarded, nothing to wait for.
    } finally {
      clearTimeout(timer);
      this.flushWaiters.delete(token);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
    this.pub.disconnect();
    this.sub.disconnect();
  }

  private receive(channel: string, payload: string): void {
    if (channel === this.flushChannel) {
      this.flushWaiters.get(payload)?.();
      this.flushWaiters.delete(payload);
      return;
    }
    const shard = Number(channel.slice(this.channelPrefix.length));
    const space = payload.indexOf(" ");
    const entry: [string, string] = [payload.slice(0, space), payload.slice(space + 1)];
    const waiting = this.replaying.get(shard);
    if (waiting) waiting.push(entry);
    else this.deliverEntry(shard, ...entry);
  }

  /** Delivers one stream entry unless it was delivered already (replay and live overlap). */
  private deliverEntry(shard: number, id: string, payload: string): void {
    const last = this.lastIds.get(shard);
    if (last !== undefined && compareIds(id, last) <= 0) return;
    this.lastIds.set(shard, id);
    try {
      const { event, userIds, publishedAt } = JSON.parse(payload) as { event: ChatEvent; userIds: number[]; publishedAt?: number };
      this.registry.deliver(event, userIds);
      if (publishedAt !== undefined) this.hooks.onDelivered?.(event, Date.now() - publishedAt);
    } catch (err) {
      this.onError(err);
    }
  }

  private connectionUp(name: "pub" | "sub"): void {
    this.connected[name] = true;
    if (!this.connected.pub || !this.connected.sub || this.state === "up" || this.closing) return;
    // A fresh subscriber connection holds no subscriptions (autoResubscribe is off): subscribe
    // for the queues there are (none after an outage) before saying events flow again.
    this.subscribed = new Set();
    void this.whenSubscribedWhileComingUp();
  }

  private async whenSubscribedWhileComingUp(): Promise<void> {
    this.state = "starting";
    try {
      await this.whenSubscribed();
    } catch {
      return; // went down again; the next "ready" retries
    }
    if (!this.connected.pub || !this.connected.sub) return;
    this.state = "up";
    this.lastError = null;
    if (this.outageAnnounced) {
      this.outageAnnounced = false;
      this.hooks.onAvailability?.(true, null, 0);
    }
    for (const resolve of this.upWaiters.splice(0)) resolve();
  }

  private connectionDown(name: "pub" | "sub"): void {
    this.connected[name] = false;
    if (this.closing) return;
    this.goDown(`the connection to Redis was lost${this.lastError ? ` (${this.lastError})` : ""}`);
  }

  /** From up (or coming up) to down: every queue here is discarded, once, and the reason kept. */
  private goDown(reason: string): void {
    if (this.closing || this.state === "down") return;
    const wasUp = this.state === "up";
    this.state = "down";
    this.downReason = reason;
    this.subscribed = new Set();
    this.lastIds.clear();
    this.replaying.clear();
    const discarded = this.registry.discardAll();
    // Before it was ever up, start-up itself reports the failure (main.ts); no outage to log.
    if ((wasUp || discarded > 0) && !this.outageAnnounced) {
      this.outageAnnounced = true;
      this.hooks.onAvailability?.(false, reason, discarded);
    }
  }
}
