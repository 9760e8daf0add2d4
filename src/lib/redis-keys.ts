/**
 * The Redis key namespace of one deployment (its id from the store, migration 0007). Deployments
 * may share a Redis server; user ids and rate-limit keys collide across databases, so every
 * channel and key a deployment uses starts with its own prefix.
 */
import type { Redis, RedisOptions } from "ioredis";
import { loadOnFirstUse } from "./load-on-first-use.js";

const loadIoredis = loadOnFirstUse<typeof import("ioredis")>("ioredis");
export const redisNamespace = (deploymentId: string) => `parley:${deploymentId}:`;

/**
 * A new Redis client. The client package is loaded by the first one (only servers with REDIS_URL
 * set ever create one), not at start-up: see load-on-first-use.ts.
 */
export function newRedisClient(url: string, options: RedisOptions): Redis {
  return new (loadIoredis().Redis)(url, options);
}
