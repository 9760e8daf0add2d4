/**
 * POST /register's realm-wide lists (users with their profile field values, group memberships,
 * channel subscribers and their counts) are kept in memory and checked against per-realm versions
 * that triggers bump (src/store/realm-lists.ts, migration 0008); the user lists also as JSON text
 * per viewer role (src/events/state/people.ts). These tests warm the cache with a register, change
 * the data behind the process's back, and expect the very next register to show the change; and
 * check that a list read inside a transaction that rolls back never reaches a later reader.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { listUsersToPresent } from "../../src/store/users.js";
import { behindTheBack } from "../helpers/behind-the-back.js";
import { addGroup, sorted } from "../helpers/channels.js";
import { createChannel } from "../helpers/conversations.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const STATE = ["realm_user", "realm_user_groups", "subscription"];

interface State {
  realm_users: Array<{ user_id: number; full_name: string; delivery_email: string | null; profile_data?: Record<string, { value: string }> }>;
  realm_user_groups: Array<{ id: number; members: number[] }>;
  subscriptions: Array<{ stream_id: number; subscriber_count: number; subscribers?: number[] }>;
}

async function register(t: TestRealm, includeSubscribers = false, as: UserName = "hamlet"): Promise<State> {
  const res = await t.as(as).post("/register", { fetch_event_types: STATE, include_subscribers: includeSubscribers });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as State;
}

const nameOf = (s: State, userId: number) => s.realm_users.find((u) => u.user_id === userId)?.full_name;
const userIn = (s: State, userId: number) => s.realm_users.find((u) => u.user_id === userId);
const membersOf = (s: State, groupId: number) => sorted(s.realm_user_groups.find((g) => g.id === groupId)?.members ?? []);
const subscriptionOf = (s: State, channelId: number) => s.subscriptions.find((sub) => sub.stream_id === channelId);

for (const kind of STORE_KINDS) {
  describe(`register's cached realm lists [${kind}]`, () => {
    let t: TestRealm;
    let group: number;
    let channel: number;
    before(async () => {
      t = await createTestRealm(kind);
      group = await addGroup(t, "readers", ["hamlet", "othello"]);
      channel = await createChannel(t, "cached", ["hamlet", "othello", "cordelia"]);
    });
    after(() => t.close());
    beforeEach(async () => {
      // Every test starts from warm lists (both subscriber forms), so a change must defeat the cache.
      await register(t, true);
      await register(t, false);
    });

    it("shows a user renamed elsewhere", async () => {
      const { othello } = t.users;
      await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", ["Othello", othello.id]);
      assert.equal(nameOf(await register(t), othello.id), "Othello");
      await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", [othello.fullName, othello.id]);
      assert.equal(nameOf(await register(t), othello.id), othello.fullName);
    });

    it("shows a profile field value set and removed elsewhere", async () => {
      const { othello } = t.users;
      const created = await t.as("iago").post("/realm/profile_fields", { name: "Cached team", field_type: 1 });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const field = String(created.body.id);
      assert.equal(userIn(await register(t), othello.id)?.profile_data?.[field], undefined);
      await behindTheBack(t, "INSERT INTO custom_profile_field_values (user_id, field_id, value) VALUES ($1, $2, $3)", [othello.id, Number(field), "Venice"]);
      assert.deepEqual(userIn(await register(t), othello.id)?.profile_data?.[field], { value: "Venice" });
      await behindTheBack(t, "DELETE FROM custom_profile_field_values WHERE user_id = $1 AND field_id = $2", [othello.id, Number(field)]);
      assert.equal(userIn(await register(t), othello.id)?.profile_data?.[field], undefined);
    });

    it("shows each viewer their own email from the list their role shares", async () => {
      const { hamlet, othello } = t.users;
      for (const name of ["hamlet", "othello"] as const) {
        const res = await t.as(name).patch("/settings", { email_address_visibility: 4 });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      try {
        for (const [viewer, self, other] of [["hamlet", hamlet, othello], ["othello", othello, hamlet], ["hamlet", hamlet, othello]] as const) {
          const state = await register(t, false, viewer);
          assert.equal(userIn(state, self.id)?.delivery_email, self.email, `${viewer} sees their own email`);
          assert.equal(userIn(state, other.id)?.delivery_email, null, `${viewer} does not see ${other.fullName}'s`);
        }
        const admin = await register(t, false, "iago");
        assert.equal(userIn(admin, hamlet.id)?.delivery_email, null, "nobody means administrators too");
      } finally {
        for (const name of ["hamlet", "othello"] as const) await t.as(name).patch("/settings", { email_address_visibility: 1 });
      }
    });

    it("shows group members added and removed elsewhere", async () => {
      const { hamlet, othello, cordelia } = t.users;
      await behindTheBack(t, "INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2)", [group, cordelia.id]);
      assert.deepEqual(membersOf(await register(t), group), sorted([hamlet.id, othello.id, cordelia.id]));
      await behindTheBack(t, "DELETE FROM user_group_members WHERE group_id = $1 AND user_id = $2", [group, cordelia.id]);
      assert.deepEqual(membersOf(await register(t), group), sorted([hamlet.id, othello.id]));
    });

    it("leaves a user deactivated elsewhere out of groups until reactivated", async () => {
      const { hamlet, othello } = t.users;
      await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [false, othello.id]);
      try {
        const state = await register(t);
        assert.deepEqual(membersOf(state, group), [hamlet.id]);
        assert.equal(nameOf(state, othello.id), undefined, "no longer among realm_users");
      } finally {
        await behindTheBack(t, "UPDATE users SET is_active = $1 WHERE id = $2", [true, othello.id]);
      }
      assert.deepEqual(membersOf(await register(t), group), sorted([hamlet.id, othello.id]));
    });

    it("counts and lists subscribers changed elsewhere", async () => {
      const { othello } = t.users;
      await behindTheBack(t, "UPDATE subscriptions SET active = $1 WHERE user_id = $2 AND recipient_id = (SELECT recipient_id FROM channels WHERE id = $3)", [false, othello.id, channel]);
      try {
        assert.equal(subscriptionOf(await register(t, false), channel)?.subscriber_count, 2);
        const listed = subscriptionOf(await register(t, true), channel);
        assert.equal(listed?.subscribers?.includes(othello.id), false);
      } finally {
        await behindTheBack(t, "UPDATE subscriptions SET active = $1 WHERE user_id = $2 AND recipient_id = (SELECT recipient_id FROM channels WHERE id = $3)", [true, othello.id, channel]);
      }
      assert.equal(subscriptionOf(await register(t, false), channel)?.subscriber_count, 3);
      assert.equal(subscriptionOf(await register(t, true), channel)?.subscribers?.includes(othello.id), true);
    });

    it("never serves a list read inside a transaction that rolled back", async () => {
      const { othello } = t.users;
      // Inside the transaction the rename bumps the realm's version; the list read there must not
      // be filed where the next committed change, which gets that same version number, finds it.
      await assert.rejects(
        transaction(t.deps.store, async (tx) => {
          await tx.db.updateTable("users").set({ full_name: "Rolled back" }).where("id", "=", othello.id).execute();
          const inside = await listUsersToPresent(tx, t.realmId);
          assert.equal(inside.find((u) => u.id === othello.id)?.full_name, "Rolled back");
          throw new Error("roll back");
        }),
        /roll back/,
      );
      await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", ["Committed", othello.id]);
      try {
        assert.equal(nameOf(await register(t), othello.id), "Committed");
      } finally {
        await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", [othello.fullName, othello.id]);
      }
    });

    it("serves a transaction the committed list while its own versions match, and its own view once it changed users", async () => {
      const { othello } = t.users;
      const outside = await listUsersToPresent(readTx(t.deps.store), t.realmId);
      await transaction(t.deps.store, async (tx) => {
        // Nothing changed since: the very list kept for the store (send and typing read it so).
        assert.equal(await listUsersToPresent(tx, t.realmId), outside);
        await tx.db.updateTable("users").set({ full_name: "Inside" }).where("id", "=", othello.id).execute();
        const changed = await listUsersToPresent(tx, t.realmId);
        assert.notEqual(changed, outside);
        assert.equal(changed.find((u) => u.id === othello.id)?.full_name, "Inside");
      });
      try {
        // The committed transaction's list now serves readers outside it.
        assert.equal(nameOf(await register(t), othello.id), "Inside");
        await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", ["Elsewhere", othello.id]);
        assert.equal(nameOf(await register(t), othello.id), "Elsewhere");
      } finally {
        await behindTheBack(t, "UPDATE users SET full_name = $1 WHERE id = $2", [othello.fullName, othello.id]);
      }
    });
  });
}
