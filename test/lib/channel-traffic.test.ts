/** stream_weekly_traffic as Zulip computes it (pure): the window, the averaging and the rounding. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { averageWeeklyTraffic, dayOf, roundToTwoSignificantDigits, trafficWindow } from "../../src/lib/channel-traffic.js";

const DAY = 86_400;
const NOW = 1_700_000_000; // 2023-11-14T22:13:20Z

describe("stream_weekly_traffic", () => {
  it("counts the 28 UTC days that ended before now, not the current one", () => {
    const { fromDay, toDay } = trafficWindow(NOW);
    assert.equal(toDay, dayOf(NOW));
    assert.equal(toDay - fromDay, 28);
    // At midnight exactly, the day that ends 28 days back is out.
    const midnight = dayOf(NOW) * DAY;
    assert.equal(trafficWindow(midnight).fromDay, dayOf(midnight) - 28);
  });

  it("is null under a week old, then a weekly average over the age, then a quarter of 28 days", () => {
    assert.equal(averageWeeklyTraffic(50, NOW - 6 * DAY - 1, NOW), null);
    assert.equal(averageWeeklyTraffic(10, NOW - 7 * DAY, NOW), 10);
    assert.equal(averageWeeklyTraffic(30, NOW - 10 * DAY, NOW), 21);
    assert.equal(averageWeeklyTraffic(100, NOW - 28 * DAY, NOW), 25);
    assert.equal(averageWeeklyTraffic(0, NOW - 400 * DAY, NOW), 0);
    // Some traffic never reads as none.
    assert.equal(averageWeeklyTraffic(3, NOW - 400 * DAY, NOW), 1);
  });

  it("rounds to two significant digits as Python's round() does, ties to even", () => {
    const cases: Array<[number, number]> = [[0, 0], [7, 7], [99, 99], [123, 120], [125, 120], [135, 140], [149, 150], [1_250, 1_200], [1_350, 1_400], [98_765, 99_000]];
    for (const [n, rounded] of cases) assert.equal(roundToTwoSignificantDigits(n), rounded, String(n));
    assert.equal(averageWeeklyTraffic(4 * 1_250, NOW - 100 * DAY, NOW), 1_200);
  });
});
