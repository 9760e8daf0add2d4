/**
 * Digest emails (Zulip's zerver/lib/digest.py), the pure part: when a realm's weekly digest falls
 * due, who counts as away, and which conversations are "hot".
 *
 * - Zulip queues digests once a day, from cron, for the realms whose `digest_weekday` (0 Monday …
 *   6 Sunday) is today. Parley's processes look themselves: a realm's period is the UTC day of its
 *   digest weekday, due from DIGEST_HOUR_UTC that day and for the 24 hours after (a server down at
 *   that hour catches up when it starts, not a week late nor the next day twice).
 * - Away: no activity in the last DIGEST_CUTOFF_DAYS (Zulip's DIGEST_CUTOFF, compared with the
 *   user's activity intervals; here with their presence's last activity), and no digest in the
 *   last RECENT_DIGEST_SECONDS (Zulip skips users sent one in the last 12 hours, so that moving
 *   the weekday does not send two in a row).
 * - Hot conversations (get_hot_topics): the two topics with the most distinct human senders, then
 *   the longest (most human messages) until there are four.
 */

export const DIGEST_CUTOFF_DAYS = 5;
export const DIGEST_CUTOFF_SECONDS = DIGEST_CUTOFF_DAYS * 24 * 60 * 60;
/** When in its digest day (UTC) a realm's digests fall due. */
export const DIGEST_HOUR_UTC = 18;
export const RECENT_DIGEST_SECONDS = 12 * 60 * 60;
/** Hot conversations shown, and how many come from diversity first. */
export const HOT_TOPICS = 4;
const HOT_BY_DIVERSITY = 2;
/** Messages shown of each hot conversation (Zulip's sample_messages). */
export const SAMPLE_MESSAGES = 2;

const DAY = 24 * 60 * 60;

/** Zulip's weekday numbering (Python's date.weekday(): Monday 0) of a UTC day number. */
export const weekdayOfDay = (day: number) => (day + 3) % 7; // 1970-01-01 was a Thursday (3)

/**
 * The period (UTC day number) whose digests are due at `now` for a realm with this weekday, or
 * null when none is: from DIGEST_HOUR_UTC on the weekday, for 24 hours.
 */
export function dueDigestPeriod(now: number, weekday: number): number | null {
  const today = Math.floor(now / DAY);
  for (const day of [today, today - 1]) {
    const start = day * DAY + DIGEST_HOUR_UTC * 3600;
    if (weekdayOfDay(day) === weekday && now >= start && now < start + DAY) return day;
  }
  return null;
}

/** The time at which the period's digests fall due. */
export const periodStart = (period: number) => period * DAY + DIGEST_HOUR_UTC * 3600;

/** Away enough for a digest: no activity since the cutoff. */
export function isAwayForDigest(lastActive: number | null, now: number): boolean {
  return lastActive === null || lastActive <= now - DIGEST_CUTOFF_SECONDS;
}

export interface DigestTopic<M> {
  channelId: number;
  topic: string;
  /** Distinct human senders (names). */
  senders: Set<string>;
  humanMessages: number;
  samples: M[];
}

/** Groups messages (oldest first) by conversation; bots' messages are sampled but not counted. */
export function collectTopics<M extends { channelId: number; topic: string; senderName: string; byBot: boolean }>(messages: readonly M[]): DigestTopic<M>[] {
  const byKey = new Map<string, DigestTopic<M>>();
  for (const m of messages) {
    const key = `${m.channelId}\u0000${m.topic.toLowerCase()}`;
    let t = byKey.get(key);
    if (!t) byKey.set(key, (t = { channelId: m.channelId, topic: m.topic, senders: new Set(), humanMessages: 0, samples: [] }));
    if (t.samples.length < SAMPLE_MESSAGES) t.samples.push(m);
    if (!m.byBot) {
      t.senders.add(m.senderName);
      t.humanMessages++;
    }
  }
  return [...byKey.values()];
}

/** The hot conversations among `topics`: most diverse first, then the longest. */
export function hotTopics<T extends { senders: Set<string>; humanMessages: number }>(topics: readonly T[]): T[] {
  const live = topics.filter((t) => t.humanMessages > 0);
  const hot = [...live].sort((a, b) => b.senders.size - a.senders.size).slice(0, HOT_BY_DIVERSITY);
  for (const t of [...live].sort((a, b) => b.humanMessages - a.humanMessages)) {
    if (hot.length >= HOT_TOPICS) break;
    if (!hot.includes(t)) hot.push(t);
  }
  return hot;
}
