/**
 * A `message` event carries the message object built at send time from what the send already
 * holds (actions/messages/message-views.ts presentNewMessage), without reading the message back. It must
 * be the object GET /messages/{id} builds from the store, flags aside: for a channel message with
 * a linkified topic, a 1:1 direct message, a group direct message and a message to oneself.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`message event objects [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
      await createChannel(t, "events-object", ["hamlet", "othello"]);
      const linkifier = await t.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://tracker.example/{id}" });
      assert.equal(linkifier.status, 200, JSON.stringify(linkifier.body));
    });
    after(() => t.close());

    /** The event's message object and the fetched one, for `viewer`, both without flags. */
    async function eventAndFetched(send: () => Promise<number>, viewer: UserName) {
      t.published.length = 0;
      const id = await send();
      const event = t.published.find((e) => e.event.type === "message" && e.userIds.includes(t.users[viewer].id));
      assert.ok(event, "the viewer got a message event");
      const fetched = await t.as(viewer).get(`/messages/${id}`);
      assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
      const { flags: _, ...message } = fetched.body.message as Record<string, unknown>;
      return { event: event.event.message as Record<string, unknown>, fetched: message };
    }

    it("is the fetched object for a channel message with topic links and a mention", async () => {
      const { event, fetched } = await eventAndFetched(() => sendToChannel(t, "hamlet", "events-object", "issue #42", "hi @**Othello, the Moor of Venice** :smile:"), "othello");
      assert.deepEqual(event, fetched);
      assert.deepEqual(event.topic_links, [{ text: "#42", url: "https://tracker.example/42" }]);
    });

    it("is the fetched object for direct messages: one to one, a group, oneself", async () => {
      for (const [to, viewer] of [[["othello"], "othello"], [["othello", "cordelia"], "cordelia"], [["hamlet"], "hamlet"]] as Array<[UserName[], UserName]>) {
        const { event, fetched } = await eventAndFetched(() => sendDirect(t, "hamlet", to), viewer);
        assert.deepEqual(event, fetched, `to ${to.join(", ")}`);
      }
    });
  });
}
