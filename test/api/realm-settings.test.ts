/** Organization settings through PATCH /realm (Zulip's update-realm), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { readTx, transaction } from "../../src/store/db.js";
import { getGroupMemberIds } from "../../src/store/groups.js";
import { getRealmById } from "../../src/store/realms.js";
import { updateUser } from "../../src/store/users.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { eventsOf, realmSettings, systemGroupId } from "../helpers/channels.js";
import { createChannel } from "../helpers/conversations.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`realm settings [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    const realm = async () => (await getRealmById(readTx(t.deps.store), t.realmId))!;
    const patch = (params: Record<string, unknown>, who: "desdemona" | "iago" = "iago") => t.as(who).patch("/realm", params);
    const realmEvents = () => eventsOf(t, "realm").map((e) => e.event);

    it("changes the name and description and the message editing settings, telling everyone", async () => {
      t.published.length = 0;
      const res = await patch({
        name: "  Elsinore  ",
        description: "A castle **in Denmark**",
        allow_message_editing: false,
        allow_edit_history: false,
        message_content_edit_limit_seconds: 600,
        message_content_delete_limit_seconds: "unlimited",
        move_messages_within_stream_limit_seconds: 3600,
        move_messages_between_streams_limit_seconds: 7200,
        enable_spectator_access: true,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        result: "success",
        msg: "",
        name: "updated",
        description: "updated",
        allow_message_editing: false,
        allow_edit_history: false,
        message_content_edit_limit_seconds: 600,
        move_messages_within_stream_limit_seconds: 3600,
        move_messages_between_streams_limit_seconds: 7200,
        enable_spectator_access: true,
      });
      const row = await realm();
      assert.equal(row.name, "Elsinore");
      assert.equal(row.description, "A castle **in Denmark**");
      assert.equal(row.allow_message_editing, false);
      assert.equal(row.message_content_edit_limit_seconds, 600);
      assert.equal(row.message_content_delete_limit_seconds, null);
      assert.equal(row.enable_spectator_access, true);
      const events = realmEvents();
      assert.deepEqual(events.find((e) => e.property === "name"), { type: "realm", op: "update", property: "name", value: "Elsinore" });
      assert.ok(events.some((e) => e.op === "update_dict" && JSON.stringify(e.data) === '{"message_content_edit_limit_seconds":600}'));
      assert.ok(events.some((e) => e.op === "update_dict" && JSON.stringify(e.data) === '{"allow_message_editing":false}'));
      assert.ok(events.some((e) => e.op === "update_dict" && JSON.stringify(e.data) === '{"description":"A castle **in Denmark**"}'));
      assert.ok(eventsOf(t, "realm")[0].userIds.includes(t.users.polonius.id));

      t.published.length = 0;
      const same = await patch({ name: "Elsinore", allow_message_editing: false });
      assert.deepEqual(same.body, { result: "success", msg: "" });
      assert.equal(realmEvents().length, 0);
      assert.equal((await patch({ message_content_edit_limit_seconds: "unlimited" })).body.message_content_edit_limit_seconds, null);
      assert.equal((await realm()).message_content_edit_limit_seconds, null);
    });

    it("refuses bad values and changes nothing then", async () => {
      const before = await realm();
      assertError(await patch({ name: "   " }), "Organization name can't be empty.");
      assertError(await patch({ name: "x".repeat(41) }), "name is too long (limit: 40 characters)", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ description: "x".repeat(1001) }), "description is too long (limit: 1000 characters)", "REQUEST_VARIABLE_INVALID");
      for (const bad of [0, -60, "forever", "abc"]) {
        const res = await patch({ message_content_edit_limit_seconds: bad });
        assertError(res, `Bad value for 'message_content_edit_limit_seconds': ${bad}`, "REQUEST_VARIABLE_INVALID");
        // Zulip's RequestVariableConversionError names the parameter and echoes the value.
        assert.deepEqual([res.body.var_name, res.body.bad_value], ["message_content_edit_limit_seconds", bad]);
      }
      assertError(await patch({ topics_policy: "empty_topic_only" }), "Invalid topics_policy", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ allow_edit_history: "yes" }), 'Argument "allow_edit_history" is not valid JSON.', "INVALID_JSON");
      assertError(await patch({ name: "Changed", new_stream_announcements_stream_id: 999999 }), "Invalid channel ID");
      assert.deepEqual(await realm(), before);
    });

    it("sets the topics policy with the legacy mandatory_topics flag", async () => {
      t.published.length = 0;
      assert.equal((await patch({ topics_policy: "disable_empty_topic" })).body.topics_policy, "disable_empty_topic");
      assert.equal((await realm()).topics_policy, "disable_empty_topic");
      assert.deepEqual(realmEvents(), [{ type: "realm", op: "update_dict", property: "default", data: { topics_policy: "disable_empty_topic", mandatory_topics: true } }]);
    });

    it("sets and clears the announcement channels", async () => {
      const lounge = await createChannel(t, "lounge", ["iago"]);
      const secret = await createChannel(t, "secret", ["desdemona"], { invite_only: true });
      const res = await patch({ new_stream_announcements_stream_id: lounge, signup_announcements_stream_id: secret });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.new_stream_announcements_stream_id, lounge);
      assert.deepEqual(await realmSettings(t), { new_stream_announcements_stream_id: lounge, signup_announcements_stream_id: secret });
      t.published.length = 0;
      assert.equal((await patch({ signup_announcements_stream_id: -1 })).body.signup_announcements_stream_id, -1);
      assert.deepEqual(realmEvents(), [{ type: "realm", op: "update", property: "signup_announcements_stream_id", value: -1 }]);
      assert.deepEqual(await realmSettings(t), { new_stream_announcements_stream_id: lounge });
    });

    it("leaves joining, the waiting period and retention to owners", async () => {
      for (const params of [{ invite_required: false }, { emails_restricted_to_domains: true }, { waiting_period_threshold: 3 }, { message_retention_days: 30 }]) {
        assertError(await patch(params), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      }
      const res = await patch({ invite_required: false, emails_restricted_to_domains: true, message_retention_days: 30 }, "desdemona");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const row = await realm();
      assert.equal(row.invite_required, false);
      assert.equal(row.emails_restricted_to_domains, true);
      assert.equal(row.message_retention_days, 30);
      assert.equal((await patch({ message_retention_days: "unlimited" }, "desdemona")).body.message_retention_days, -1);
      assertError(await patch({ message_retention_days: "realm_default" }, "desdemona"), "Bad value for 'message_retention_days': realm_default", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ message_retention_days: 0 }, "desdemona"), "Bad value for 'message_retention_days': 0", "REQUEST_VARIABLE_INVALID");
      assertError(await patch({ waiting_period_threshold: -1 }, "desdemona"), "waiting_period_threshold is too small", "REQUEST_VARIABLE_INVALID");
    });

    it("moves members in and out of role:fullmembers when the waiting period changes", async () => {
      await transaction(t.deps.store, (tx) => updateUser(tx, t.users.othello.id, { date_joined: t.clock.seconds - 10 * 86400 }));
      const full = await systemGroupId(t, "role:fullmembers");
      const members = async () => (await getGroupMemberIds(readTx(t.deps.store), [full])).sort((a, b) => a - b);
      assert.ok((await members()).includes(t.users.hamlet.id));
      t.published.length = 0;
      assert.equal((await patch({ waiting_period_threshold: 5 }, "desdemona")).status, 200);
      assert.deepEqual(await members(), [t.users.othello.id]);
      const removed = eventsOf(t, "user_group", "remove_members")[0].event;
      assert.equal(removed.group_id, full);
      assert.ok((removed.user_ids as number[]).includes(t.users.hamlet.id));
      assert.equal((await patch({ waiting_period_threshold: 0 }, "desdemona")).status, 200);
      assert.ok((await members()).includes(t.users.hamlet.id));
      assert.equal(eventsOf(t, "user_group", "add_members")[0].event.group_id, full);
    });

    it("changes group settings with the old-value check and the settings' rules", async () => {
      const admins = await systemGroupId(t, "role:administrators");
      const members = await systemGroupId(t, "role:members");
      t.published.length = 0;
      const res = await patch({ can_add_custom_emoji_group: { new: admins, old: members } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.can_add_custom_emoji_group, admins);
      assert.equal((await realm()).can_add_custom_emoji_group_id, admins);
      assert.deepEqual(realmEvents(), [{ type: "realm", op: "update_dict", property: "default", data: { can_add_custom_emoji_group: admins } }]);

      const mismatch = await patch({ can_add_custom_emoji_group: { new: members, old: members } });
      assertError(mismatch, "'can_add_custom_emoji_group' value does not match the expected value.", "EXPECTATION_MISMATCH");

      const anonymous = { direct_members: [t.users.hamlet.id], direct_subgroups: [admins] };
      const anon = await patch({ can_add_custom_emoji_group: { new: anonymous } });
      assert.deepEqual(anon.body.can_add_custom_emoji_group, anonymous);
      const hamlet = await t.as("hamlet").post("/realm/emoji/anything");
      assert.equal(hamlet.body.msg, "You must upload exactly one file.");
      assertError(await t.as("othello").post("/realm/emoji/anything"), "Insufficient permission");
      assert.deepEqual((await patch({ can_add_custom_emoji_group: { new: members, old: anonymous } })).body.can_add_custom_emoji_group, members);

      const everyone = await systemGroupId(t, "role:everyone");
      assertError(
        await patch({ can_add_custom_emoji_group: { new: everyone } }),
        "'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group.",
        "REQUEST_VARIABLE_INVALID",
      );
      assertError(
        await patch({ can_create_web_public_channel_group: { new: members } }),
        "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.",
        "REQUEST_VARIABLE_INVALID",
      );
      assertError(
        await patch({ can_create_web_public_channel_group: { new: { direct_members: [t.users.iago.id], direct_subgroups: [] } } }),
        "'can_create_web_public_channel_group' must be a system user group.",
        "SYSTEM_GROUP_REQUIRED",
      );
      assertError(await patch({ can_add_custom_emoji_group: { new: 999999 } }), "Invalid user group");
      assertError(await patch({ can_add_custom_emoji_group: admins }), "can_add_custom_emoji_group is not a dict", "REQUEST_VARIABLE_INVALID");
    });

    it("leaves who may invite, create groups or manage all groups to owners", async () => {
      const admins = await systemGroupId(t, "role:administrators");
      for (const name of ["can_invite_users_group", "create_multiuse_invite_group", "can_create_groups", "can_manage_all_groups"]) {
        assertError(await patch({ [name]: { new: admins } }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      }
      assert.equal((await patch({ can_invite_users_group: { new: admins } }, "desdemona")).status, 200);
      assertError(await t.as("hamlet").post("/invites", { invitee_emails: "x@example.com", stream_ids: [] }), "Insufficient permission");
    });

    it("writes nothing when any part of the request fails", async () => {
      const admins = await systemGroupId(t, "role:administrators");
      const res = await patch({ name: "Changed", can_add_custom_emoji_group: { new: admins }, can_delete_own_message_group: { new: 999999 } });
      assertError(res, "Invalid user group");
      const row = await realm();
      assert.equal(row.name, "Zulip Dev");
      assert.notEqual(row.can_add_custom_emoji_group_id, admins);
    });

    describe("permissions per endpoint", () => {
      let n = 0;
      it("PATCH /realm", () => checkPermissions(["desdemona", "iago"], (who) => t.as(who).patch("/realm", { name: `Realm ${++n}` })));
      it("PATCH /realm (owner-only settings)", () =>
        checkPermissions(["desdemona"], (who) => t.as(who).patch("/realm", { waiting_period_threshold: ++n })));
    });
  });
}
