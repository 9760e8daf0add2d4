/**
 * The short memory behind the Redis bus (redis-bus.ts). Pub/sub forgets a message the moment it is
 * sent, so a process that restarts (SIGTERM, saved queues, a new process on the same socket) would
 * miss whatever other processes published in between, silently. Each publication is therefore
 * also appended to its shard's stream, kept for STREAM_RETAIN_MS, and carries the stream entry's
 * id; a process remembers per shard the id of the last entry it delivered, saves that with its
 * queues, and the next process replays the entries after it before going live (issue 18, items
 * 1 and 4: a rolling restart loses nothing).
 */
import type { Redis } from "ioredis";

/** How long entries stay in the streams: the longest restart whose queues can be restored. */
export const STREAM_RETAIN_MS = 120_000;

/**
 * One atomic step per shard: append to the stream (trimming entries older than the retention by
 * Redis's own clock, so publishers' clocks do not matter), then publish "<entry id> <payload>".
 */
export const PUBLISH_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = redis.call('XADD', KEYS[1], 'MINID', '~', (now - tonumber(ARGV[2])) .. '-0', '*', 'p', ARGV[1])
redis.call('PUBLISH', KEYS[2], id .. ' ' .. ARGV[1])
return id`;

/** Orders two stream ids ("<ms>-<seq>"). */
export function compareIds(a: string, b: string): number {
  const [am, as] = a.split("-").map(Number);
  const [bm, bs] = b.split("-").map(Number);
  return am !== bm ? am - bm : as - bs;
}

/** Redis's clock in milliseconds. */
export async function redisNowMs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** What a process saves with its queues: the last entry delivered per shard, and when. */
export interface SavedPositions {
  savedAtMs: number;
  positions: Record<string, string>;
}

export function isSavedPositions(value: unknown): value is SavedPositions {
  const v = value as SavedPositions | null;
  return typeof v?.savedAtMs === "number" && typeof v.positions === "object" && v.positions !== null;
}

/** The last stream entry of each shard, before subscribing to it: where its deliveries start. */
export async function streamTails(redis: Redis, keys: string[]): Promise<Array<string | null>> {
  if (keys.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const key of keys) pipeline.xrevrange(key, "+", "-", "COUNT", 1);
  const results = (await pipeline.exec()) ?? [];
  return results.map(([err, entries]) => {
    if (err) throw err;
    const list = entries as Array<[string, string[]]>;
    return list.length > 0 ? list[0][0] : "0-0";
  });
}

/** The entries of `key` after `afterId`, as [id, payload]. */
export async function entriesAfter(redis: Redis, key: string, afterId: string): Promise<Array<[string, string]>> {
  const entries = (await redis.xrange(key, `(${afterId}`, "+")) as Array<[string, string[]]>;
  return entries.map(([id, fields]) => [id, fields[1]]);
}
