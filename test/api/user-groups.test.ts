/** User groups: create (spec 4.13), update, deactivate, members and subgroups (spec 4.20), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getSystemGroupByName } from "../../src/store/groups.js";
import { updateRealm } from "../../src/store/realms.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { addUser, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const NON_GUESTS: UserName[] = ["desdemona", "iago", "shiva", "hamlet", "bot"];

for (const kind of STORE_KINDS) {
  describe(`user groups [${kind}]`, () => {
    let t: TestRealm;
    let system: Record<string, number>;
    beforeEach(async () => {
      t = await createTestRealm(kind);
      system = {};
      for (const name of ["role:nobody", "role:owners", "role:administrators", "role:members", "role:everyone", "role:internet"]) {
        system[name] = (await getSystemGroupByName(readTx(t.deps.store), t.realmId, name)).id;
      }
    });
    afterEach(() => t.close());

    async function create(name: string, members: number[], extra: Record<string, unknown> = {}, as: UserName = "hamlet"): Promise<number> {
      const res = await t.as(as).post("/user_groups/create", { name, description: `${name} group`, members, ...extra });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.group_id;
    }

    async function groupById(id: number) {
      const res = await t.as("othello").get("/user_groups", { include_deactivated_groups: true });
      return res.body.user_groups.find((g: { id: number }) => g.id === id);
    }

    it("creates a group with Zulip's default settings and announces it", async () => {
      t.published.length = 0;
      const id = await create("Shakespeare", [t.users.hamlet.id, t.users.othello.id]);
      const group = await groupById(id);
      assert.deepEqual(group, {
        id,
        name: "Shakespeare",
        creator_id: t.users.hamlet.id,
        date_created: t.clock.seconds,
        description: "Shakespeare group",
        members: [t.users.hamlet.id, t.users.othello.id].sort((a, b) => a - b),
        direct_subgroup_ids: [],
        is_system_group: false,
        deactivated: false,
        can_add_members_group: { direct_members: [t.users.hamlet.id], direct_subgroups: [] },
        can_join_group: system["role:nobody"],
        can_leave_group: system["role:everyone"],
        can_manage_group: { direct_members: [t.users.hamlet.id], direct_subgroups: [] },
        can_mention_group: system["role:everyone"],
        can_remove_members_group: system["role:nobody"],
      });
      const event = t.published.find((e) => e.event.type === "user_group" && e.event.op === "add");
      assert.deepEqual(event?.event.group, group);
      assert.ok(event?.userIds.includes(t.users.polonius.id));
      const systemGroup = (await t.as("hamlet").get("/user_groups")).body.user_groups.find((g: { name: string }) => g.name === "role:members");
      assert.equal(systemGroup.is_system_group, true);
    });

    it("accepts subgroups and group-setting values, and bots as creators", async () => {
      const inner = await create("Inner", [t.users.cordelia.id]);
      const id = await create("Outer", [], {
        subgroups: [inner],
        can_mention_group: { direct_members: [t.users.iago.id], direct_subgroups: [inner] },
        can_join_group: system["role:members"],
        can_manage_group: { direct_members: [], direct_subgroups: [system["role:administrators"]] },
      });
      const group = await groupById(id);
      assert.deepEqual(group.direct_subgroup_ids, [inner]);
      assert.deepEqual(group.can_mention_group, { direct_members: [t.users.iago.id], direct_subgroups: [inner] });
      assert.equal(group.can_join_group, system["role:members"]);
      assert.equal(group.can_manage_group, system["role:administrators"]);
      await create("Made by a bot", [t.users.hamlet.id], {}, "bot");
    });

    it("refuses bad names, members, subgroups and settings", async () => {
      await create("Taken", []);
      const retired = await addUser(t);
      await t.as("iago").delete(`/users/${retired.id}`);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: "  " }, "User group name can't be empty!"],
        [{ name: "g".repeat(101) }, "User group name cannot exceed 100 characters."],
        [{ name: "@all" }, "User group name cannot start with '@'."],
        [{ name: "role:mine" }, "User group name cannot start with 'role:'."],
        [{ name: "user:x" }, "User group name cannot start with 'user:'."],
        [{ name: "stream:x" }, "User group name cannot start with 'stream:'."],
        [{ name: "channel:x" }, "User group name cannot start with 'channel:'."],
        [{ name: "Taken" }, "User group 'Taken' already exists."],
        [{ name: "M", members: [99999] }, "Invalid user ID: 99999"],
        [{ name: "M", members: [retired.id] }, `User with ID ${retired.id} is deactivated`],
        [{ name: "S", subgroups: [99999] }, "Invalid user group ID: 99999"],
        [{ name: "A", can_manage_group: system["role:everyone"] }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
        [{ name: "A", can_manage_group: system["role:internet"] }, "'can_manage_group' setting cannot be set to 'role:internet' group."],
        [{ name: "B", can_mention_group: system["role:owners"] }, "'can_mention_group' setting cannot be set to 'role:owners' group."],
        [{ name: "B", can_mention_group: system["role:internet"] }, "'can_mention_group' setting cannot be set to 'role:internet' group."],
        [{ name: "C", can_join_group: 99999 }, "Invalid user group"],
      ];
      for (const [params, msg] of cases) {
        const res = await t.as("hamlet").post("/user_groups/create", { description: "", members: [], ...params });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.msg, msg);
      }
      const names = (await t.as("hamlet").get("/user_groups")).body.user_groups.map((g: { name: string }) => g.name);
      assert.ok(!names.includes("A") && !names.includes("M"));
    });

    it("follows the realm's can_create_groups", async () => {
      let n = 0;
      await checkPermissions(NON_GUESTS, (caller) => t.as(caller).post("/user_groups/create", { name: `G${++n}`, description: "", members: [] }));
      assertError(await t.as("polonius").post("/user_groups/create", { name: "Guests", description: "", members: [] }), "Not allowed for guest users");
      await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, { can_create_groups_id: system["role:administrators"] }));
      assertError(await t.as("hamlet").post("/user_groups/create", { name: "Nope", description: "", members: [] }), "Insufficient permission");
      await create("Admins may", [], {}, "iago");
    });

    it("adds and removes members with the matching permissions", async () => {
      const id = await create("Crew", [t.users.hamlet.id, t.users.othello.id]);
      t.published.length = 0;
      assert.equal((await t.as("hamlet").post(`/user_groups/${id}/members`, { add: [t.users.cordelia.id], delete: [t.users.othello.id] })).status, 200);
      assert.deepEqual((await groupById(id)).members, [t.users.hamlet.id, t.users.cordelia.id].sort((a, b) => a - b));
      const ops = t.published.filter((e) => e.event.type === "user_group" && e.event.group_id === id).map((e) => [e.event.op, e.event.user_ids]);
      assert.deepEqual(ops, [["add_members", [t.users.cordelia.id]], ["remove_members", [t.users.othello.id]]]);
      const notices = t.published.filter((e) => e.event.type === "message");
      assert.ok(notices.some((e) => e.userIds.includes(t.users.cordelia.id) && /added you to the group/.test(String((e.event.message as { content: string }).content))));
      assertError(await t.as("othello").post(`/user_groups/${id}/members`, { add: [t.users.shiva.id] }), "Insufficient permission");
      assertError(await t.as("othello").post(`/user_groups/${id}/members`, { add: [t.users.othello.id] }), "Insufficient permission");
      await t.as("hamlet").patch(`/user_groups/${id}`, { can_join_group: { new: system["role:members"] } });
      assert.equal((await t.as("othello").post(`/user_groups/${id}/members`, { add: [t.users.othello.id] })).status, 200);
      assert.equal((await t.as("cordelia").post(`/user_groups/${id}/members`, { delete: [t.users.cordelia.id] })).status, 200);
      assertError(await t.as("othello").post(`/user_groups/${id}/members`, { delete: [t.users.hamlet.id] }), "Insufficient permission");
      assertError(await t.as("hamlet").post(`/user_groups/${id}/members`, { add: [t.users.othello.id] }), `User ${t.users.othello.id} is already a member of this group`);
      assertError(await t.as("hamlet").post(`/user_groups/${id}/members`, { delete: [t.users.shiva.id] }), `There is no member '${t.users.shiva.id}' in this user group`);
      const retired = await addUser(t);
      await t.as("iago").delete(`/users/${retired.id}`);
      assertError(await t.as("hamlet").post(`/user_groups/${id}/members`, { add: [retired.id] }), `User with ID ${retired.id} is deactivated`);
      assertError(
        await t.as("hamlet").post(`/user_groups/${id}/members`, {}),
        'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
      );
      assertError(await t.as("desdemona").post(`/user_groups/${system["role:members"]}/members`, { add: [t.users.polonius.id] }), "Insufficient permission");
      assertError(await t.as("hamlet").post("/user_groups/99999/members", { add: [t.users.shiva.id] }), "Invalid user group");
    });

    it("nests subgroups without cycles and reads membership recursively", async () => {
      const a = await create("A", [t.users.hamlet.id]);
      const b = await create("B", [t.users.othello.id]);
      const c = await create("C", [t.users.cordelia.id]);
      assert.equal((await t.as("hamlet").post(`/user_groups/${a}/members`, { add_subgroups: [b] })).status, 200);
      assert.equal((await t.as("hamlet").post(`/user_groups/${b}/subgroups`, { add: [c] })).status, 200);
      assertError(await t.as("hamlet").post(`/user_groups/${c}/subgroups`, { add: [a] }), `User group ${c} is already a subgroup of one of the passed subgroups.`);
      assertError(await t.as("hamlet").post(`/user_groups/${a}/subgroups`, { add: [a] }), `User group ${a} is already a subgroup of one of the passed subgroups.`);
      assertError(await t.as("hamlet").post(`/user_groups/${a}/subgroups`, { add: [b] }), `User group ${b} is already a subgroup of this group.`);
      assertError(await t.as("hamlet").post(`/user_groups/${a}/subgroups`, { delete: [c] }), `User group ${c} is not a subgroup of this group.`);
      assertError(await t.as("hamlet").post(`/user_groups/${a}/subgroups`, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
      const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);
      assert.deepEqual((await t.as("iago").get(`/user_groups/${a}/members`)).body.members, sorted([t.users.hamlet.id, t.users.othello.id, t.users.cordelia.id]));
      assert.deepEqual((await t.as("iago").get(`/user_groups/${a}/members`, { direct_member_only: true })).body.members, [t.users.hamlet.id]);
      assert.deepEqual((await t.as("iago").get(`/user_groups/${a}/subgroups`)).body.subgroups, sorted([b, c]));
      assert.deepEqual((await t.as("iago").get(`/user_groups/${a}/subgroups`, { direct_subgroup_only: true })).body.subgroups, [b]);
      const isMember = async (userId: number, direct = false) =>
        (await t.as("iago").get(`/user_groups/${a}/members/${userId}`, { direct_member_only: direct })).body.is_user_group_member;
      assert.equal(await isMember(t.users.cordelia.id), true);
      assert.equal(await isMember(t.users.cordelia.id, true), false);
      assert.equal(await isMember(t.users.shiva.id), false);
      assertError(await t.as("iago").get(`/user_groups/${a}/members/99999`), "No such user");
      assert.equal((await t.as("hamlet").post(`/user_groups/${a}/members`, { delete_subgroups: [b] })).status, 200);
      assert.deepEqual((await t.as("iago").get(`/user_groups/${a}/members`)).body.members, [t.users.hamlet.id]);
    });

    it("updates name, description and settings, checking the expected old value", async () => {
      const id = await create("Old name", []);
      t.published.length = 0;
      const res = await t.as("hamlet").patch(`/user_groups/${id}`, {
        name: "New name",
        description: "New description",
        can_mention_group: { new: system["role:members"], old: system["role:everyone"] },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const group = await groupById(id);
      assert.equal(group.name, "New name");
      assert.equal(group.can_mention_group, system["role:members"]);
      const update = t.published.find((e) => e.event.type === "user_group" && e.event.op === "update");
      assert.deepEqual(update?.event.data, { name: "New name", description: "New description", can_mention_group: system["role:members"] });
      const mismatch = await t.as("hamlet").patch(`/user_groups/${id}`, { can_mention_group: { new: system["role:everyone"], old: system["role:nobody"] } });
      assertError(mismatch, "'can_mention_group' value does not match the expected value.", "EXPECTATION_MISMATCH");
      assertError(await t.as("hamlet").patch(`/user_groups/${id}`, {}), "No new data supplied");
      await create("Other", []);
      assertError(await t.as("hamlet").patch(`/user_groups/${id}`, { name: "Other" }), "User group 'Other' already exists.");
      assertError(await t.as("othello").patch(`/user_groups/${id}`, { description: "mine" }), "Insufficient permission");
      assertError(await t.as("iago").patch(`/user_groups/${system["role:members"]}`, { description: "x" }), "Insufficient permission");
    });

    it("deactivates unused groups only, and reactivates them", async () => {
      const used = await create("Used", []);
      const user = await create("User of it", [], { can_mention_group: used });
      const outer = await create("Outer", [], { subgroups: [used] });
      const free = await create("Free", [t.users.hamlet.id]);
      const channel = await t.as("iago").post("/channels/create", {
        name: "Guarded",
        subscribers: [t.users.iago.id],
        can_send_message_group: { direct_members: [t.users.iago.id], direct_subgroups: [used] },
      });
      assert.equal(channel.status, 200, JSON.stringify(channel.body));
      await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, { can_create_groups_id: used }));
      const res = await t.as("hamlet").post(`/user_groups/${used}/deactivate`);
      assertError(res, "Cannot deactivate user group in use.", "CANNOT_DEACTIVATE_GROUP_IN_USE");
      assert.deepEqual(res.body.objections, [
        { type: "subgroup", supergroup_ids: [outer] },
        { type: "channel", channel_id: channel.body.id, settings: ["can_send_message_group"] },
        { type: "user_group", group_id: user, settings: ["can_mention_group"] },
        { type: "realm", settings: ["can_create_groups"] },
      ]);
      t.published.length = 0;
      assert.equal((await t.as("hamlet").post(`/user_groups/${free}/deactivate`)).status, 200);
      const events = t.published.filter((e) => e.event.type === "user_group").map((e) => e.event);
      assert.ok(events.some((e) => e.op === "update" && e.group_id === free && (e.data as { deactivated?: boolean }).deactivated === true));
      assert.ok(events.some((e) => e.op === "remove" && e.group_id === free), "clients without include_deactivated_groups lose the group");
      const listed = (await t.as("hamlet").get("/user_groups")).body.user_groups.map((g: { id: number }) => g.id);
      assert.ok(!listed.includes(free));
      assert.equal((await groupById(free)).deactivated, true);
      assertError(await t.as("hamlet").post(`/user_groups/${free}/deactivate`), "User group is deactivated.");
      assert.equal((await t.as("hamlet").patch(`/user_groups/${free}`, { deactivated: false })).status, 200);
      assert.equal((await groupById(free)).deactivated, false);
    });

    it("checks every endpoint against each kind of caller", async () => {
      const id = await create("Perms", [t.users.hamlet.id]);
      const managers: UserName[] = ["desdemona", "hamlet"];
      await checkPermissions(NON_GUESTS, (caller) => t.as(caller).get("/user_groups"));
      await checkPermissions(NON_GUESTS, (caller) => t.as(caller).get(`/user_groups/${id}/members`));
      await checkPermissions(NON_GUESTS, (caller) => t.as(caller).get(`/user_groups/${id}/members/${t.users.hamlet.id}`));
      await checkPermissions(NON_GUESTS, (caller) => t.as(caller).get(`/user_groups/${id}/subgroups`));
      await checkPermissions(managers, (caller) => t.as(caller).patch(`/user_groups/${id}`, { description: caller }));
      const others = await Promise.all(["a", "b", "c", "d", "e", "f"].map(async () => (await addUser(t)).id));
      let i = 0;
      await checkPermissions(managers, (caller) => t.as(caller).post(`/user_groups/${id}/members`, { add: [others[i++]] }));
      const subs = await Promise.all(["s1", "s2", "s3", "s4", "s5", "s6"].map((n) => create(n, [])));
      i = 0;
      await checkPermissions(managers, (caller) => t.as(caller).post(`/user_groups/${id}/subgroups`, { add: [subs[i++]] }));
      const doomed = await Promise.all(["d1", "d2", "d3", "d4", "d5", "d6"].map((n) => create(n, [])));
      i = 0;
      await checkPermissions(managers, (caller) => t.as(caller).post(`/user_groups/${doomed[i++]}/deactivate`));
    });
  });
}
