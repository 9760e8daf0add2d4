/**
 * A channel's `stream_weekly_traffic` as Zulip computes it (zerver/lib/stream_traffic.py, read for
 * behaviour): the messages sent to it in the last 28 complete days (UTC days, as Zulip's
 * `messages_in_stream:is_bot:day` analytics count them), as a weekly average over the channel's
 * age when it is younger than 28 days, rounded to two significant digits; null while the channel
 * is less than 7 days old. Pure: the day counts come from store/channel-traffic.ts.
 */

const DAY_SECONDS = 86_400;
export const TRAFFIC_WINDOW_DAYS = 28;
const MIN_AGE_DAYS = 7;

/** The UTC day (days since the epoch) a timestamp falls in. */
export function dayOf(seconds: number): number {
  return Math.floor(seconds / DAY_SECONDS);
}

/**
 * The days whose counts make the traffic at `now`: those that ended in the last 28 days
 * (`fromDay` inclusive, `toDay` exclusive); the current day is not complete yet.
 */
export function trafficWindow(now: number): { fromDay: number; toDay: number } {
  return { fromDay: dayOf(now - TRAFFIC_WINDOW_DAYS * DAY_SECONDS), toDay: dayOf(now) };
}

/** Python's round(n, 2 - len(str(n))) for n >= 0: two significant digits, ties to even. */
export function roundToTwoSignificantDigits(n: number): number {
  const digits = String(n).length;
  if (digits <= 2) return n;
  const unit = 10 ** (digits - 2);
  const low = Math.floor(n / unit);
  const rest = n - low * unit;
  const up = rest * 2 > unit || (rest * 2 === unit && low % 2 === 1);
  return (up ? low + 1 : low) * unit;
}

/** `messages` is the channel's count over trafficWindow(now); null when it is too young to say. */
export function averageWeeklyTraffic(messages: number, dateCreated: number, now: number): number | null {
  const ageDays = Math.floor((now - dateCreated) / DAY_SECONDS);
  let weekly: number;
  if (ageDays >= TRAFFIC_WINDOW_DAYS) weekly = Math.floor(messages / 4);
  else if (ageDays >= MIN_AGE_DAYS) weekly = Math.floor((messages * 7) / ageDays);
  else return null;
  if (weekly === 0 && messages > 0) weekly = 1;
  return roundToTwoSignificantDigits(weekly);
}
