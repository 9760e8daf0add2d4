/**
 * Notification Bot's notices when a channel is archived (DELETE /streams/{id}) or unarchived
 * (PATCH is_archived=false), as Zulip's do_deactivate_stream and do_unarchive_stream post them:
 * "Channel #**name** has been archived." / "… has been unarchived." in the channel's
 * "channel events" topic, the archiving notice already read by everyone.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { NOTIFICATION_BOT_EMAIL } from "../../src/policy/system-bots.js";
import { eventsOf } from "../helpers/channels.js";
import { createTestRealm, type PublishedEvent, type TestRealm } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`channel archiving notices [${kind}]`, () => {
    let t: TestRealm;
    let n = 0;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    async function channel(subscribers: number[], params: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
      const name = `room-${++n}`;
      const res = await t.as("desdemona").post("/channels/create", { name, subscribers, ...params });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.id, name };
    }

    const notices = (from: number): PublishedEvent[] =>
      eventsOf(t, "message", undefined, from).filter((p) => (p.event.message as { sender_email: string }).sender_email === NOTIFICATION_BOT_EMAIL);

    it("posts the archiving notice in the channel, read by every subscriber", async () => {
      const room = await channel([t.users.hamlet.id, t.users.cordelia.id]);
      const from = t.published.length;
      assert.equal((await t.as("iago").delete(`/streams/${room.id}`)).status, 200);
      const { event, userIds } = notices(from).find((p) => p.userIds.includes(t.users.hamlet.id)) as PublishedEvent;
      const message = event.message as Record<string, unknown>;
      assert.equal(message.stream_id, room.id);
      assert.equal(message.subject, "channel events");
      assert.equal(message.sender_full_name, "Notification Bot");
      assert.match(String(message.content), new RegExp(`^<p>Channel <a class="stream" data-stream-id="${room.id}" href="[^"]+">#${room.name}</a> has been archived\\.</p>$`));
      assert.deepEqual(event.flags, ["read"]);
      for (const id of [t.users.hamlet.id, t.users.cordelia.id]) assert.ok(userIds.includes(id));
      assert.ok(!userIds.includes(t.users.iago.id), "the archiving administrator is not subscribed");
      const unread = (await t.as("hamlet").post("/register", { event_types: ["message", "update_message_flags"] })).body.unread_msgs;
      assert.ok(!JSON.stringify(unread.streams).includes(`"stream_id":${room.id}`), "no unread message in the archived channel");
      // The notice stays readable in the archived channel.
      const narrow = JSON.stringify([{ operator: "channel", operand: room.id }]);
      const fetched = await t.as("hamlet").get("/messages", { narrow, anchor: "newest", num_before: 5, num_after: 0 });
      assert.equal(fetched.body.messages.at(-1).content, message.content);
    });

    it("links a private channel even when its archiver is not subscribed", async () => {
      const room = await channel([t.users.hamlet.id], { invite_only: true });
      const from = t.published.length;
      assert.equal((await t.as("iago").delete(`/streams/${room.id}`)).status, 200);
      const { event, userIds } = notices(from).find((p) => p.userIds.includes(t.users.hamlet.id)) as PublishedEvent;
      assert.match(String((event.message as { content: string }).content), new RegExp(`data-stream-id="${room.id}"`));
      assert.deepEqual(userIds, [t.users.hamlet.id]);
    });

    it("uses the empty topic in channels that allow only it", async () => {
      const room = await channel([t.users.hamlet.id], { topics_policy: "empty_topic_only" });
      const from = t.published.length;
      assert.equal((await t.as("iago").delete(`/streams/${room.id}`)).status, 200);
      assert.equal((notices(from)[0].event.message as { subject: string }).subject, "");
    });

    it("posts nothing when archiving fails", async () => {
      const room = await channel([t.users.hamlet.id]);
      assert.equal((await t.as("iago").delete(`/streams/${room.id}`)).status, 200);
      const from = t.published.length;
      assertError(await t.as("iago").delete(`/streams/${room.id}`), "Channel is already deactivated");
      assertError(await t.as("cordelia").delete(`/streams/${(await channel([])).id}`), "You do not have permission to administer this channel.");
      assert.equal(notices(from).length, 0);
    });

    it("posts the unarchiving notice, unread for subscribers other than the actor", async () => {
      const room = await channel([t.users.hamlet.id, t.users.iago.id]);
      assert.equal((await t.as("iago").delete(`/streams/${room.id}`)).status, 200);
      const from = t.published.length;
      assert.equal((await t.as("iago").patch(`/streams/${room.id}`, { is_archived: false })).status, 200);
      const posted = notices(from);
      const content = String((posted[0].event.message as { content: string }).content);
      assert.match(content, new RegExp(`>#${room.name}</a> has been unarchived\\.</p>$`));
      const flagsOf = (userId: number) => posted.find((p) => p.userIds.includes(userId))?.event.flags;
      assert.deepEqual(flagsOf(t.users.hamlet.id), []);
      assert.deepEqual(flagsOf(t.users.iago.id), ["read"]);
    });

    it("names the channel as it is called when archived", async () => {
      const room = await channel([t.users.hamlet.id]);
      assert.equal((await t.as("desdemona").patch(`/streams/${room.id}`, { new_name: "renamed room" })).status, 200);
      const from = t.published.length;
      assert.equal((await t.as("desdemona").delete(`/streams/${room.id}`)).status, 200);
      assert.match(String((notices(from)[0].event.message as { content: string }).content), />#renamed room<\/a> has been archived\./);
    });
  });
}
