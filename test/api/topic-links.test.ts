/**
 * Topic links in sent messages as Zulip renders them now: #**channel>topic** names the topic's
 * latest message the author can read with `/with/<id>` (FL 347, latest since FL 400), the empty
 * topic is valid (FL 346), and a topic without readable messages links without `/with/`. On every store.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { unsubscribeUsers } from "../../src/store/subscriptions.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { createChannel, sendToChannel, subscribe } from "../helpers/conversations.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`topic links [${kind}]`, () => {
    let t: TestRealm;
    let verona: number;
    let secret: number;
    before(async () => {
      t = await createTestRealm(kind);
      verona = await createChannel(t, "Verona", ["hamlet", "othello"]);
      secret = await createChannel(t, "Secret", ["hamlet", "othello"], { invite_only: true, history_public_to_subscribers: false });
    });
    after(() => t.close());

    const rendered = async (sender: UserName, content: string) => {
      const id = await sendToChannel(t, sender, "Verona", "links", content);
      return (await t.as(sender).get(`/messages/${id}`)).body.message.content as string;
    };

    it("names the topic's latest message, matching the topic case-insensitively", async () => {
      await sendToChannel(t, "othello", "Verona", "lunch", "first");
      const latest = await sendToChannel(t, "othello", "Verona", "Lunch", "second");
      assert.equal(
        await rendered("hamlet", "see #**Verona>LUNCH**"),
        `<p>see <a class="stream-topic" data-stream-id="${verona}" href="/#narrow/channel/${verona}-Verona/topic/LUNCH/with/${latest}">#Verona &gt; LUNCH</a></p>`,
      );
      assert.equal(
        await rendered("hamlet", "#**Verona>nothing yet**"),
        `<p><a class="stream-topic" data-stream-id="${verona}" href="/#narrow/channel/${verona}-Verona/topic/nothing.20yet">#Verona &gt; nothing yet</a></p>`,
      );
    });

    it("links the empty topic", async () => {
      const general = await sendToChannel(t, "othello", "Verona", "", "in general chat");
      assert.equal(
        await rendered("hamlet", "#**Verona>**"),
        `<p><a class="stream-topic" data-stream-id="${verona}" href="/#narrow/channel/${verona}-Verona/topic//with/${general}">#Verona &gt; <em>general chat</em></a></p>`,
      );
    });

    it("in a channel with protected history, counts only messages the author received", async () => {
      const received = await sendToChannel(t, "othello", "Secret", "plans", "hamlet sees this");
      const channel = await getChannelById(readTx(t.deps.store), t.realmId, secret);
      await transaction(t.deps.store, (tx) => unsubscribeUsers(tx, channel!.recipient_id!, [t.users.hamlet.id]));
      await sendToChannel(t, "othello", "Secret", "plans", "sent while hamlet was away");
      await subscribe(t, secret, ["hamlet"]);
      assert.equal(
        await rendered("hamlet", "#**Secret>plans**"),
        `<p><a class="stream-topic" data-stream-id="${secret}" href="/#narrow/channel/${secret}-Secret/topic/plans/with/${received}">#Secret &gt; plans</a></p>`,
      );
    });
  });
}
