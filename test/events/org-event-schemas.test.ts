/**
 * Events of organization administration (users, bots, settings, status, profile fields, user
 * groups, linkifiers, channel folders), as GET /events delivers them, must match Zulip's OpenAPI
 * event schemas. Skips visibly when ../shared is absent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { contract, eventViolations } from "../helpers/contract/validator.js";

const available = contract() !== null;

describe("organization events match the OpenAPI event schemas", { skip: available ? false : "../shared/reference/zulip-openapi-current.yaml is absent" }, () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite");
  });
  after(() => t.close());

  it("users, bots, settings, status, profile fields, groups, linkifiers and folders", async () => {
    const queues: Array<[UserName, string]> = [];
    for (const who of ["hamlet", "iago"] as const) {
      // linkifier_url_template: realm_linkifiers events reach only clients that declare it.
      const q = await t.as(who).post("/register", { client_capabilities: { linkifier_url_template: true } });
      assert.equal(q.status, 200, JSON.stringify(q.body));
      queues.push([who, q.body.queue_id]);
    }
    const ok = async (res: Promise<{ status: number; body: Record<string, unknown> }>) => {
      const r = await res;
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    const created = await ok(t.as("iago").post("/users", { email: "new@zulip.test", password: "long enough password", full_name: "New" }));
    await ok(t.as("iago").patch(`/users/${created.user_id}`, { full_name: "Newer", role: 300 }));
    await ok(t.as("hamlet").patch("/settings", { timezone: "Europe/Oslo", enter_sends: true, email_address_visibility: 3 }));
    const bot = await ok(t.as("hamlet").post("/bots", { full_name: "Helper", short_name: "helper" }));
    await ok(t.as("hamlet").patch(`/bots/${bot.user_id}`, { full_name: "Helper 2" }));
    await ok(t.as("iago").delete(`/users/${created.user_id}`));
    await ok(t.as("hamlet").post("/users/me/status", { status_text: "away", emoji_name: "car", away: true }));
    const field = await ok(t.as("iago").post("/realm/profile_fields", { name: "Bio", field_type: 2 }));
    await ok(t.as("hamlet").patch("/users/me/profile_data", { data: [{ id: field.id, value: "**bold**" }] }));
    await ok(t.as("iago").patch("/realm/user_settings_defaults", { color_scheme: 2 }));
    const group = await ok(t.as("hamlet").post("/user_groups/create", { name: "Crew", description: "", members: [t.users.hamlet.id] }));
    const inner = await ok(t.as("hamlet").post("/user_groups/create", { name: "Inner", description: "", members: [] }));
    await ok(t.as("hamlet").post(`/user_groups/${group.group_id}/members`, { add: [t.users.othello.id], add_subgroups: [inner.group_id] }));
    await ok(t.as("hamlet").post(`/user_groups/${group.group_id}/members`, { delete: [t.users.othello.id], delete_subgroups: [inner.group_id] }));
    await ok(t.as("hamlet").patch(`/user_groups/${group.group_id}`, { name: "Crew 2", description: "d" }));
    await ok(t.as("hamlet").patch(`/user_groups/${group.group_id}`, { can_join_group: { new: { direct_members: [t.users.iago.id], direct_subgroups: [] } } }));
    await ok(t.as("hamlet").post(`/user_groups/${inner.group_id}/deactivate`));
    await ok(t.as("hamlet").patch(`/user_groups/${inner.group_id}`, { deactivated: false }));
    await ok(t.as("iago").post(`/users/${created.user_id}/reactivate`));
    await ok(t.as("iago").delete(`/bots/${bot.user_id}`));
    const linkifier = await ok(t.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" }));
    await ok(t.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: [linkifier.id] }));
    const folder = await ok(t.as("iago").post("/channel_folders/create", { name: "Folder", description: "" }));
    await ok(t.as("iago").patch(`/channel_folders/${folder.channel_folder_id}`, { name: "Renamed", is_archived: true }));
    await ok(t.as("iago").patch("/channel_folders", { order: [folder.channel_folder_id] }));
    const delivered: Array<Record<string, unknown>> = [];
    for (const [who, queueId] of queues) {
      const res = await t.as(who).get("/events", { queue_id: queueId, dont_block: true });
      delivered.push(...res.body.events);
    }
    assert.deepEqual(eventViolations(delivered), []);
    const types = new Set(delivered.map((e) => e.type));
    // The queues declared no capabilities, so the legacy settings events come too.
    const expected = ["realm_user", "realm_bot", "user_settings", "update_display_settings", "update_global_notifications", "user_status"];
    for (const type of [...expected, "custom_profile_fields", "realm_user_settings_defaults", "user_group", "realm_linkifiers", "channel_folder"]) {
      assert.ok(types.has(type), type);
    }
  });
});
