/**
 * DELETE /users/{user_id} `actions` (FL 459): deleting the deactivated user's profile and the
 * messages they sent, by kind of conversation, for their bots first and then for them. Message
 * deletion is queued with the deactivation and done in bounded batches (deleteDueUserMessages, the
 * worker's job), never on the request. On every store.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { deleteDueUserMessages } from "../../src/actions/messages/user-message-deletion.js";
import type { Timers } from "../../src/scheduler/due-worker.js";
import { UserMessageDeletionWorker } from "../../src/scheduler/user-message-deletion.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getUserById, updateUser } from "../../src/store/users.js";
import { createChannel, sendDirect, sendToChannel } from "../helpers/conversations.js";
import { eventsOfType } from "../helpers/edits.js";
import { createTestRealm, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** Timers fired by hand (the DueWorker's, as test/api/message-scheduler.test.ts drives them). */
class ManualTimers implements Timers {
  pending: Array<{ fn: () => void; ms: number }> = [];
  set(fn: () => void, ms: number): unknown {
    const timer = { fn, ms };
    this.pending.push(timer);
    return timer;
  }
  clear(handle: unknown): void {
    this.pending = this.pending.filter((p) => p !== handle);
  }
  get armed(): number {
    assert.equal(this.pending.length, 1, "exactly one timer is armed");
    return this.pending[0].ms;
  }
  fire(): void {
    const timer = this.pending.shift();
    assert.ok(timer, "a timer is armed");
    timer.fn();
  }
}

for (const kind of STORE_KINDS) {
  describe(`DELETE /users/{id} actions [${kind}]`, () => {
    let t: TestRealm;
    let sent: { pub: number[]; priv: number[]; direct: number[]; others: number[]; bot: number[] };
    let bot: TestUser;
    let wakes: number[];

    beforeEach(async () => {
      t = await createTestRealm(kind);
      wakes = [];
      t.deps.messageDeleter = { wake: (at) => void wakes.push(at) };
      await createChannel(t, "pub", ["hamlet", "othello", "iago"]);
      await createChannel(t, "priv", ["hamlet", "othello", "iago"], { invite_only: true });
      const created = await t.as("hamlet").post("/bots", { full_name: "Hamlet's helper", short_name: "helper" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const email = (await t.as("hamlet").get(`/users/${created.body.user_id}`)).body.user.email as string;
      bot = { id: created.body.user_id, email, apiKey: created.body.api_key, fullName: "Hamlet's helper", role: 400 };
      sent = {
        pub: [await sendToChannel(t, "hamlet", "pub", "one"), await sendToChannel(t, "hamlet", "pub", "one"), await sendToChannel(t, "hamlet", "pub", "two")],
        priv: [await sendToChannel(t, "hamlet", "priv", "secret"), await sendToChannel(t, "hamlet", "priv", "secret")],
        direct: [await sendDirect(t, "hamlet", ["othello"]), await sendDirect(t, "hamlet", ["othello", "cordelia"]), await sendDirect(t, "hamlet", ["othello"])],
        others: [await sendToChannel(t, "othello", "pub", "one"), await sendDirect(t, "othello", ["hamlet"])],
        bot: [],
      };
      const fromBot = await t.as(bot).post("/messages", { type: "stream", to: "pub", topic: "bot talk", content: "beep" });
      assert.equal(fromBot.status, 200, JSON.stringify(fromBot.body));
      sent.bot.push(fromBot.body.id);
    });
    afterEach(() => t.close());

    const existing = async (ids: number[]) =>
      (await readTx(t.deps.store).db.selectFrom("messages").select("id").where("id", "in", ids).execute()).map((r) => r.id).sort((a, b) => a - b);
    const queued = async () => readTx(t.deps.store).db.selectFrom("pending_notifications").selectAll().where("kind", "=", "delete_user_messages").execute();
    /** Runs the worker's job until nothing is due; answers how many rounds it took. */
    async function drain(limit: number): Promise<number> {
      let rounds = 0;
      while ((await deleteDueUserMessages(t.deps, limit)) > 0) rounds++;
      return rounds;
    }
    const deactivate = (actions?: unknown, who: "iago" | "hamlet" | "shiva" | "desdemona" = "iago", target = t.users.hamlet.id) =>
      t.as(who).delete(`/users/${target}`, actions === undefined ? {} : { actions });

    it("queues the deletion with the deactivation and deletes in bounded batches: public channels and direct messages, bots first", async () => {
      const res = await deactivate({ delete_public_channel_messages: true, delete_direct_messages: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await getUserById(readTx(t.deps.store), t.realmId, t.users.hamlet.id))!.is_active, false);
      // Nothing deleted on the request: one queued row each for the bot and its owner, and the worker woken.
      assert.deepEqual(await existing(sent.pub), sent.pub);
      assert.deepEqual((await queued()).map((r) => r.user_id).sort((a, b) => a - b), [t.users.hamlet.id, bot.id].sort((a, b) => a - b));
      assert.ok(wakes.length > 0, "the deletion worker is woken after the commit");
      const from = t.published.length;
      // One round deletes at most `limit` messages.
      assert.equal(await deleteDueUserMessages(t.deps, 2), 2);
      const all = [...sent.pub, ...sent.direct, ...sent.bot];
      assert.ok((await existing(all)).length >= all.length - 2);
      assert.ok((await drain(2)) >= 2, "several rounds for five messages in batches of two");
      assert.deepEqual(await existing(all), []);
      assert.deepEqual(await existing(sent.priv), sent.priv, "private channel messages were not asked for");
      assert.deepEqual(await existing(sent.others), sent.others, "other senders' messages stay");
      assert.deepEqual(await queued(), []);
      const deletions = eventsOfType(t, "delete_message", from);
      const deletedIds = deletions.flatMap((p) => p.event.message_ids as number[]).sort((a, b) => a - b);
      assert.deepEqual(deletedIds, [...all].sort((a, b) => a - b));
      const streamEvent = deletions.find((p) => p.event.message_type === "stream" && p.event.topic === "two");
      assert.ok(streamEvent?.userIds.includes(t.users.othello.id), "subscribers hear of the deletion");
      assert.ok(deletions.every((p) => p.userIds.includes(t.users.iago.id)), "the administrator who asked hears of each");
      assert.deepEqual(await existing(sent.pub), []);
    });

    it("deletes private channel messages alone when asked, and the profile of the user and their bots", async () => {
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.hamlet.id, { avatar_source: "U", avatar_version: 3 }));
      const from = t.published.length;
      const res = await deactivate({ delete_profile: true, delete_private_channel_messages: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await drain(100);
      assert.deepEqual(await existing(sent.priv), []);
      assert.deepEqual(await existing([...sent.pub, ...sent.direct, ...sent.bot]), [...sent.pub, ...sent.direct, ...sent.bot].sort((a, b) => a - b));
      const hamlet = await getUserById(readTx(t.deps.store), t.realmId, t.users.hamlet.id);
      assert.equal(hamlet!.full_name, "Deleted user");
      assert.equal(hamlet!.avatar_source, "G");
      assert.equal(hamlet!.avatar_version, 4);
      assert.equal((await getUserById(readTx(t.deps.store), t.realmId, bot.id))!.full_name, "Deleted user");
      const updates = eventsOfType(t, "realm_user", from).map((p) => p.event.person as Record<string, unknown>);
      assert.ok(updates.some((p) => p.user_id === t.users.hamlet.id && p.full_name === "Deleted user"));
      assert.ok(updates.some((p) => p.user_id === bot.id && p.full_name === "Deleted user"));
      assert.ok(updates.some((p) => p.user_id === t.users.hamlet.id && p.avatar_version === 4 && typeof p.avatar_url === "string"));
    });

    it("does nothing more without actions, or with every action false", async () => {
      assert.equal((await deactivate({})).status, 200);
      assert.deepEqual(await queued(), []);
      assert.equal((await t.as("iago").post(`/users/${t.users.hamlet.id}/reactivate`)).status, 200);
      assert.equal((await deactivate({ delete_profile: false, delete_direct_messages: false })).status, 200);
      assert.deepEqual(await queued(), []);
      assert.equal((await getUserById(readTx(t.deps.store), t.realmId, t.users.hamlet.id))!.full_name, "King Hamlet");
    });

    it("refuses malformed actions with Zulip's errors and deactivates nobody", async () => {
      assertError(await t.as("iago").delete(`/users/${t.users.hamlet.id}`, { actions: "{nope" }), 'Argument "actions" is not valid JSON.', "INVALID_JSON");
      assertError(await deactivate([true]), "actions is not a dict", "REQUEST_VARIABLE_INVALID");
      assertError(await deactivate({ delete_profile: "yes" }), 'actions["delete_profile"] is not a boolean', "REQUEST_VARIABLE_INVALID");
      assertError(await deactivate({ delete_direct_messages: 1 }), 'actions["delete_direct_messages"] is not a boolean', "REQUEST_VARIABLE_INVALID");
      assert.equal((await getUserById(readTx(t.deps.store), t.realmId, t.users.hamlet.id))!.is_active, true);
      assert.deepEqual(await queued(), []);
      // Keys Zulip's model does not know are ignored.
      assert.equal((await deactivate({ delete_direct_messages: true, delete_everything: true })).status, 200);
      await drain(100);
      assert.deepEqual(await existing(sent.direct), []);
    });

    it("is worked off by the server's worker: woken on commit, one batch per timer turn, then asleep", async () => {
      const timers = new ManualTimers();
      const errors: unknown[] = [];
      const worker = new UserMessageDeletionWorker(t.deps, { timers, batchSize: 2, onError: (err) => errors.push(err) });
      t.deps.messageDeleter = worker;
      try {
        worker.start();
        timers.fire();
        await worker.idle();
        assert.equal(timers.armed, 60_000, "nothing queued: it sleeps");
        assert.equal((await deactivate({ delete_public_channel_messages: true, delete_private_channel_messages: true })).status, 200);
        assert.equal(timers.armed, 0, "the commit woke it");
        let turns = 0;
        while (timers.armed === 0 && turns < 20) {
          timers.fire();
          await worker.idle();
          turns++;
        }
        assert.ok(turns >= 3, `bounded batches, one per turn (${turns} turns)`);
        assert.deepEqual(await existing([...sent.pub, ...sent.priv, ...sent.bot]), []);
        assert.deepEqual(await existing(sent.direct), sent.direct);
        assert.deepEqual(errors, []);
      } finally {
        await worker.stop();
      }
    });

    it("is for administrators, and only owners act on owners", async () => {
      for (const who of ["hamlet", "shiva"] as const) {
        assertError(await deactivate({ delete_public_channel_messages: true }, who, t.users.othello.id), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      }
      assertError(await deactivate({ delete_profile: true }, "iago", t.users.desdemona.id), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      assertError(await deactivate({ delete_profile: true }, "iago", 99999), "No such user");
      assert.deepEqual(await queued(), []);
      assert.equal((await getUserById(readTx(t.deps.store), t.realmId, t.users.desdemona.id))!.full_name, "Desdemona");
      assert.deepEqual(await existing(sent.others), sent.others);
    });
  });
}
