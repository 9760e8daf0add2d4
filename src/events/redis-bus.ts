/**
 * Cross-process event fan-out through Redis pub/sub (REDIS_URL set). Users are spread over a fixed
 * number of shard channels; a process subscribes only to the shards of users it holds queues for,
 * so it receives (roughly) only what its queues need. Every delivery, local ones included, goes
 * through Redis, which keeps one order per user.
 *
 * Routing of GET /events: a queue lives in the process that created it. Put the processes behind
 * a balancer that routes by user (as Zulip routes by user to Tornado shards); a poll that lands
 * elsewhere gets BAD_EVENT_QUEUE_ID and the client re-registers there, which is always safe.
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { newRedisClient, redisNamespace } from "../lib/redis-keys.js";
import type { ChatEvent, EventBus } from "./bus.js";
import type { QueueRegistry } from "./registry.js";

export const SHARD_COUNT = 64;
const FLUSH_TIMEOUT_MS = 5_000;

const shardOf = (userId: number) => userId % SHARD_COUNT;

export class RedisEventBus implements EventBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private subscribed = new Set<number>();
  private syncing: Promise<void> = Promise.resolve();
  /** This process's own channel: a token sent on it returns after everything published before it. */
  private readonly flushChannel: string;
  private readonly channelPrefix: string;
  private readonly flushWaiters = new Map<string, () => void>();

  constructor(
    url: string,
    deploymentId: string,
    private readonly registry: QueueRegistry,
    private readonly onError: (err: unknown) => void,
  ) {
    this.channelPrefix = `${redisNamespace(deploymentId)}events:`;
    this.flushChannel = `${redisNamespace(deploymentId)}flush:${randomUUID()}`;
    this.pub = newRedisClient(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
    this.sub = newRedisClient(url, { lazyConnect: false });
    this.pub.on("error", onError);
    this.sub.on("error", onError);
    this.sub.on("message", (channel: string, payload: string) => {
      if (channel === this.flushChannel) {
        this.flushWaiters.get(payload)?.();
        this.flushWaiters.delete(payload);
        return;
      }
      try {
        const { event, userIds } = JSON.parse(payload) as { event: ChatEvent; userIds: number[] };
        this.registry.deliver(event, userIds);
      } catch (err) {
        this.onError(err);
      }
    });
    registry.onUsersChanged = () => void this.whenSubscribed();
  }

  publish(event: ChatEvent, userIds: readonly number[]): void {
    const byShard = new Map<number, number[]>();
    for (const id of userIds) byShard.set(shardOf(id), [...(byShard.get(shardOf(id)) ?? []), id]);
    const pipeline = this.pub.pipeline();
    for (const [shard, ids] of byShard) pipeline.publish(this.channelPrefix + shard, JSON.stringify({ event, userIds: ids }));
    pipeline.exec().catch(this.onError);
  }

  /**
   * Brings the Redis subscriptions in line with the users holding queues here; resolves once
   * Redis confirmed them, so a register can read its initial state knowing no event will be missed.
   */
  whenSubscribed(): Promise<void> {
    this.syncing = this.syncing.then(async () => {
      const wanted = new Set(this.registry.userIds().map(shardOf));
      const add = [...wanted].filter((s) => !this.subscribed.has(s));
      const drop = [...this.subscribed].filter((s) => !wanted.has(s));
      if (add.length) await this.sub.subscribe(...add.map((s) => this.channelPrefix + s));
      if (drop.length) await this.sub.unsubscribe(...drop.map((s) => this.channelPrefix + s));
      this.subscribed = wanted;
    }).catch(this.onError);
    return this.syncing;
  }

  /**
   * Redis delivers one connection's publishes to a subscriber in order, so once a token published
   * now comes back, every event published earlier has reached the registry.
   */
  async flush(timeoutMs = FLUSH_TIMEOUT_MS): Promise<void> {
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
    } finally {
      clearTimeout(timer);
      this.flushWaiters.delete(token);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }
}
