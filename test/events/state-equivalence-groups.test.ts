/**
 * State equivalence for user groups (issue 5): creating, renaming, members and subgroups, group
 * settings, deactivating and reactivating, for clients with include_deactivated_groups (they
 * keep a deactivated group, marked) and without it (it leaves their list, and comes back whole).
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { systemGroupId } from "../helpers/channels.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { LEGACY_LISTS_REGISTER, ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: user groups [${kind}]`, () => {
    let t: TestRealm;
    let n = 0;
    before(async () => {
      t = await createTestRealm(kind);
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    async function newGroup(members: number[] = []): Promise<number> {
      const res = await t.as("hamlet").post("/user_groups/create", { name: `Group ${++n}`, description: "", members });
      return res.body.group_id;
    }

    it("creating a group reaches everyone", async () => {
      const create = () => t.as("hamlet").post("/user_groups/create", { name: "Crew", description: "the crew", members: [t.users.hamlet.id, t.users.othello.id] });
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], create, { expect: { cordelia: ["user_group/add"], polonius: ["user_group/add"] } });
    });

    it("renaming, describing and changing a group's settings", async () => {
      const id = await newGroup([t.users.hamlet.id]);
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { name: "Renamed", description: "new words" }));
      const admins = await systemGroupId(t, "role:administrators");
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { can_mention_group: { new: admins } }));
      const anonymous = { direct_members: [t.users.othello.id], direct_subgroups: [admins] };
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { can_join_group: { new: anonymous } }));
    });

    it("members and subgroups come and go", async () => {
      const id = await newGroup([t.users.hamlet.id]);
      const inner = await newGroup();
      const members = (params: Record<string, unknown>) => () => t.as("hamlet").post(`/user_groups/${id}/members`, params);
      await verifyAction(t, ["hamlet", "cordelia"], members({ add: [t.users.othello.id, t.users.cordelia.id] }), { expect: { cordelia: ["user_group/add_members", "message"] } });
      await verifyAction(t, ["cordelia"], members({ delete: [t.users.othello.id], add_subgroups: [inner] }));
      await verifyAction(t, ["cordelia"], members({ delete_subgroups: [inner] }));
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").post(`/user_groups/${id}/subgroups`, { add: [inner] }));
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").post(`/user_groups/${id}/subgroups`, { delete: [inner] }));
    });

    it("deactivating and reactivating a group: include_deactivated_groups clients keep it", async () => {
      const id = await newGroup([t.users.hamlet.id]);
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("hamlet").post(`/user_groups/${id}/deactivate`), { expect: { cordelia: ["user_group/update"] } });
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { name: "Dormant" }), { expect: { cordelia: ["user_group/update"] } });
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").post(`/user_groups/${id}/members`, { add: [t.users.othello.id] }));
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { deactivated: false }), { expect: { cordelia: ["user_group/update"] } });
    });

    it("deactivating and reactivating a group: older clients see it removed, then added back", async () => {
      const id = await newGroup([t.users.hamlet.id]);
      const legacy = { register: LEGACY_LISTS_REGISTER };
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("hamlet").post(`/user_groups/${id}/deactivate`), { ...legacy, expect: { cordelia: ["user_group/remove"] } });
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { name: "Sleeping" }), { ...legacy, expect: { cordelia: [] } });
      await verifyAction(t, ["cordelia"], () => t.as("hamlet").post(`/user_groups/${id}/members`, { add: [t.users.othello.id] }), { ...legacy, expect: { cordelia: [] } });
      await verifyAction(t, ["hamlet", "cordelia"], () => t.as("hamlet").patch(`/user_groups/${id}`, { deactivated: false }), { ...legacy, expect: { cordelia: ["user_group/add"] } });
    });

    it("realm group settings (PATCH /realm) reach everyone", async () => {
      const moderators = await systemGroupId(t, "role:moderators");
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("desdemona").patch("/realm", { can_create_groups: { new: moderators } }), { expect: { polonius: ["realm/update_dict"] } });
      const anonymous = { direct_members: [t.users.hamlet.id], direct_subgroups: [moderators] };
      await verifyAction(t, ["hamlet"], () => t.as("desdemona").patch("/realm", { can_invite_users_group: { new: anonymous } }));
    });
  });
}
