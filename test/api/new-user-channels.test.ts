/**
 * New accounts start in the realm's default channels, as Zulip's
 * set_up_streams_and_groups_for_new_human_user subscribes them (issue 15): accounts made by
 * POST /users and by `manage create-user`. Archived default channels are left out, bots get
 * none. (Joins through invitations are in invite-flow.test.ts: the invitation's channels, plus
 * the defaults when it asks for them.)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runCreateUser } from "../../src/cli/commands.js";
import { eventsOf } from "../helpers/channels.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`new users' default channels [${kind}]`, () => {
    let t: TestRealm;
    const channel: Record<string, number> = {};

    const makeChannel = async (name: string, isDefault: boolean): Promise<number> => {
      const res = await t.as("iago").post("/channels/create", { name, subscribers: [t.users.iago.id] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (isDefault) assert.equal((await t.as("iago").post("/default_streams", { stream_id: res.body.id })).status, 200);
      return res.body.id;
    };
    const subscribedTo = async (userId: number): Promise<string[]> => {
      const out: string[] = [];
      for (const [name, id] of Object.entries(channel)) {
        const res = await t.as("iago").get(`/users/${userId}/subscriptions/${id}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        if (res.body.is_subscribed) out.push(name);
      }
      return out.sort();
    };

    before(async () => {
      t = await createTestRealm(kind);
      channel.welcome = await makeChannel("welcome", true);
      channel.lobby = await makeChannel("lobby", true);
      channel.gone = await makeChannel("gone", true);
      channel.elsewhere = await makeChannel("elsewhere", false);
      assert.equal((await t.as("iago").delete(`/streams/${channel.gone}`)).status, 200);
    });
    after(() => t.close());

    it("POST /users subscribes the account to the active default channels, with subscription events", async () => {
      const from = t.published.length;
      const res = await t.as("iago").post("/users", { email: "newcomer@zulip.test", password: "long enough password", full_name: "Newcomer" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const id = res.body.user_id as number;
      assert.deepEqual(await subscribedTo(id), ["lobby", "welcome"]);
      const [added] = eventsOf(t, "subscription", "add", from);
      assert.deepEqual(added.userIds, [id]);
      assert.deepEqual((added.event.subscriptions as Array<{ name: string }>).map((s) => s.name).sort(), ["lobby", "welcome"]);
      const peerAdds = eventsOf(t, "subscription", "peer_add", from);
      assert.ok(peerAdds.length > 0 && peerAdds.every((e) => (e.event.user_ids as number[]).includes(id) && e.userIds.includes(t.users.iago.id)));
    });

    it("manage create-user subscribes a human to them, a bot to none", async () => {
      const human = await runCreateUser(t.deps.store, t.clock, { realm: "zulip", email: "cli-human@zulip.test", "full-name": "CLI Human", password: "pw-cli-human" });
      assert.deepEqual(await subscribedTo(human.user_id), ["lobby", "welcome"]);
      const bot = await runCreateUser(t.deps.store, t.clock, {
        realm: "zulip",
        email: "cli-bot@zulip.test",
        "full-name": "CLI Bot",
        password: "pw-cli-bot",
        "bot-type": "1",
        "bot-owner": "hamlet@zulip.test",
      });
      assert.deepEqual(await subscribedTo(bot.user_id), []);
    });
  });
}
