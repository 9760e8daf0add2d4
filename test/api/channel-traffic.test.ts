/**
 * stream_weekly_traffic in channel objects (FL 199), from the per-day counts kept as messages are
 * sent (and, for messages sent before, filled by migration 0010). On every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { bulkInsertChannelMessages } from "../../src/store/bulk-seed.js";
import { transaction } from "../../src/store/db.js";
import { channelTraffic } from "../../src/store/migrations/0013_channel_traffic.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel, sendToChannel } from "../helpers/conversations.js";
import { STORE_KINDS } from "../helpers/stores.js";

const DAY = 86_400;

for (const kind of STORE_KINDS) {
  describe(`channel weekly traffic [${kind}]`, () => {
    let t: TestRealm;
    let start: number;
    let busy: number;
    let quiet: number;
    before(async () => {
      t = await createTestRealm(kind);
      start = t.clock.seconds;
      busy = await createChannel(t, "Busy", ["hamlet"]);
      quiet = await createChannel(t, "Quiet", ["hamlet"]);
      // 6 messages a day on days 1-5 after creation, then 40 on day 35.
      for (let day = 1; day <= 5; day++) {
        t.clock.seconds = start + day * DAY;
        for (let i = 0; i < 6; i++) await sendToChannel(t, "hamlet", "Busy", "chatter", `day ${day} #${i}`);
      }
    });
    after(() => t.close());

    const traffic = async (id: number) => (await t.as("hamlet").get(`/streams/${id}`)).body.stream.stream_weekly_traffic;
    const subscriptionTraffic = async (id: number) =>
      ((await t.as("hamlet").get("/users/me/subscriptions")).body.subscriptions as Array<{ stream_id: number; stream_weekly_traffic: unknown }>).find(
        (s) => s.stream_id === id,
      )?.stream_weekly_traffic;

    it("is null for a channel under a week old", async () => {
      t.clock.seconds = start + 6 * DAY;
      assert.equal(await traffic(busy), null);
    });

    it("averages per week over a younger channel's age, counting only completed days", async () => {
      t.clock.seconds = start + 10 * DAY;
      // 30 messages over 10 days: 21 a week.
      assert.equal(await traffic(busy), 21);
      assert.equal(await subscriptionTraffic(busy), 21);
      assert.equal(await traffic(quiet), 0);
      const state = (await t.as("hamlet").post("/register", { fetch_event_types: ["subscription"] })).body;
      assert.equal(state.subscriptions.find((s: { stream_id: number }) => s.stream_id === busy).stream_weekly_traffic, 21);
    });

    it("takes a quarter of the last 28 days once the channel is older, forgetting older days", async () => {
      t.clock.seconds = start + 30 * DAY;
      // Days 2-5 are within the last 28 days (24 messages), day 1 is not.
      assert.equal(await traffic(busy), 6);
      t.clock.seconds = start + 35 * DAY;
      for (let i = 0; i < 40; i++) await sendToChannel(t, "hamlet", "Busy", "burst", `burst ${i}`);
      assert.equal(await traffic(busy), 0, "today's messages count from tomorrow on");
      t.clock.seconds = start + 36 * DAY;
      assert.equal(await traffic(busy), 10);
    });

    it("counts bulk-loaded messages too", async () => {
      const recipientId = (await t.deps.store.db.selectFrom("channels").select("recipient_id").where("id", "=", busy).executeTakeFirstOrThrow()).recipient_id as number;
      const seeded = Array.from({ length: 8 }, (_, i) => ({ senderId: t.users.hamlet.id, topic: "seed", content: `seed ${i}`, dateSent: start + 35 * DAY }));
      await transaction(t.deps.store, (tx) => bulkInsertChannelMessages(tx, t.realmId, recipientId, seeded));
      assert.equal(await traffic(busy), 12);
    });

    it("is filled from messages already sent when the counts are first made (migration 0010)", async () => {
      const before = await t.deps.store.db.selectFrom("channel_message_counts").selectAll().orderBy("channel_id").orderBy("day").execute();
      await sql`DROP TABLE channel_message_counts`.execute(t.deps.store.db);
      await channelTraffic.up(t.deps.store.db, t.deps.store.dialect);
      const rebuilt = await t.deps.store.db.selectFrom("channel_message_counts").selectAll().orderBy("channel_id").orderBy("day").execute();
      assert.deepEqual(rebuilt, before);
      assert.equal(await traffic(busy), 12);
    });
  });
}
