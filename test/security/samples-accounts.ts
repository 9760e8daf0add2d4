/**
 * Permission-matrix requests for accounts and organization endpoints: credentials, users, bots,
 * settings, profile fields, user groups, linkifiers, channel folders, invitations, custom emoji,
 * push devices and the realm itself. See permission-samples.ts for the shape.
 */
import { SignJWT } from "jose";
import { PASSWORD } from "../helpers/fixtures.js";
import { PNG, unique } from "./objects.js";
import type { EndpointSample } from "./permission-samples.js";
import { JWT_KEY } from "./world.js";

const none = (): { params: Record<string, unknown> } => ({ params: {} });

export const ACCOUNT_SAMPLES: Record<string, EndpointSample> = {
  "GET /server_settings": { build: none },
  "POST /fetch_api_key": { build: () => ({ params: { username: "cordelia@zulip.test", password: PASSWORD } }) },
  "POST /jwt/fetch_api_key": {
    build: async () => ({
      params: { token: await new SignJWT({ email: "cordelia@zulip.test" }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(JWT_KEY)) },
    }),
  },
  "POST /users/me/api_key/regenerate": { freshCaller: true, build: none },

  "GET /users/me": { build: none },
  "POST /users": { build: () => ({ params: { email: `${unique("new")}@zulip.test`, password: "a strong password 2", full_name: unique("New User ") } }) },
  "GET /users": { build: none },
  "GET /users/:user_id": { build: ({ o }) => ({ path: { user_id: o.realm.users.othello.id } }) },
  "PATCH /users/:user_id": { build: async ({ o }) => ({ path: { user_id: (await o.user()).id }, params: { full_name: unique("Renamed ") } }) },
  "DELETE /users/:user_id": { build: async ({ o }) => ({ path: { user_id: (await o.user()).id } }) },
  "DELETE /users/me": { freshCaller: true, build: none },
  "POST /users/:user_id/reactivate": { build: async ({ o }) => ({ path: { user_id: (await o.deactivatedUser()).id } }) },
  "PATCH /settings": { build: () => ({ params: { enter_sends: true } }) },
  "PATCH /settings/display": { build: () => ({ params: { twenty_four_hour_time: true } }) },
  "PATCH /settings/notifications": { build: () => ({ params: { enable_sounds: false } }) },
  "PATCH /realm/user_settings_defaults": { build: () => ({ params: { enter_sends: true } }) },
  "POST /users/me/status": { build: () => ({ params: { status_text: "in a meeting" } }) },
  "GET /users/:user_id/status": { build: ({ o }) => ({ path: { user_id: o.realm.users.othello.id } }) },
  "POST /users/:user_id/status": { build: async ({ o }) => ({ path: { user_id: (await o.user()).id }, params: { status_text: "Set for them" } }) },
  "POST /users/me/presence": { build: () => ({ params: { status: "active" } }) },
  "GET /realm/presence": { build: none },
  "GET /users/:user_id/presence": { build: ({ o }) => ({ path: { user_id: o.realm.users.othello.id } }) },
  "GET /users/me/alert_words": { build: none },
  "POST /users/me/alert_words": { build: () => ({ params: { alert_words: ["matrix"] } }) },
  "DELETE /users/me/alert_words": { build: () => ({ params: { alert_words: ["matrix"] } }) },

  // Bots: the target bot belongs to othello, a member who is none of the callers.
  "POST /bots": { build: () => ({ params: { full_name: unique("Matrix Bot "), short_name: unique("newbot") } }) },
  "GET /bots": { build: none },
  "PATCH /bots/:bot_id": { build: async ({ o }) => ({ path: { bot_id: (await o.bot("othello")).id }, params: { full_name: unique("Renamed Bot ") } }) },
  "DELETE /bots/:bot_id": { build: async ({ o }) => ({ path: { bot_id: (await o.bot("othello")).id } }) },
  "GET /bots/:bot_id/api_key": { build: async ({ o }) => ({ path: { bot_id: (await o.bot("othello")).id } }) },

  "GET /realm/profile_fields": { build: none },
  "POST /realm/profile_fields": { build: () => ({ params: { field_type: 1, name: unique("Field "), hint: "" } }) },
  "PATCH /realm/profile_fields": {
    build: async ({ o }) => ({ params: { order: (await o.ok("iago", { method: "GET", path: "/realm/profile_fields" })).custom_fields.map((f: { id: number }) => f.id) } }),
  },
  "PATCH /realm/profile_fields/:field_id": { build: async ({ o }) => ({ path: { field_id: await o.profileField() }, params: { name: unique("Field ") } }) },
  "DELETE /realm/profile_fields/:field_id": { build: async ({ o }) => ({ path: { field_id: await o.profileField() } }) },
  "PATCH /users/me/profile_data": { build: ({ shared }) => ({ params: { data: [{ id: shared.fieldId, value: "a value" }] } }) },
  "DELETE /users/me/profile_data": { build: ({ shared }) => ({ params: { data: [shared.fieldId] } }) },

  // User groups: made by the administrator with default settings; the caller is not a member.
  "POST /user_groups/create": { build: ({ o }) => ({ params: { name: unique("Group "), description: "", members: o.ids("othello") } }) },
  "GET /user_groups": { build: none },
  "PATCH /user_groups/:user_group_id": { build: async ({ o }) => ({ path: { user_group_id: await o.group() }, params: { description: "changed" } }) },
  "POST /user_groups/:user_group_id/deactivate": { build: async ({ o }) => ({ path: { user_group_id: await o.group() } }) },
  "POST /user_groups/:user_group_id/members": { build: async ({ o }) => ({ path: { user_group_id: await o.group() }, params: { add: o.ids("cordelia") } }) },
  "POST /user_groups/:user_group_id/subgroups": { build: async ({ o }) => ({ path: { user_group_id: await o.group() }, params: { add: [await o.group()] } }) },
  "GET /user_groups/:user_group_id/members": { build: ({ shared }) => ({ path: { user_group_id: shared.groupId } }) },
  "GET /user_groups/:user_group_id/members/:user_id": { build: ({ o, shared }) => ({ path: { user_group_id: shared.groupId, user_id: o.realm.users.othello.id } }) },
  "GET /user_groups/:user_group_id/subgroups": { build: ({ shared }) => ({ path: { user_group_id: shared.groupId } }) },

  "GET /realm/linkifiers": { build: none },
  "GET /realm/filters": { build: none },
  "POST /realm/filters": { build: () => ({ params: { pattern: `${unique("N")}-(?P<id>[0-9]+)`, url_template: "https://tracker.example.com/{id}" } }) },
  "PATCH /realm/filters/:filter_id": {
    build: async ({ o }) => ({ path: { filter_id: await o.linkifier() }, params: { pattern: `${unique("P")}-(?P<id>[0-9]+)`, url_template: "https://tracker.example.com/{id}" } }),
  },
  "DELETE /realm/filters/:filter_id": { build: async ({ o }) => ({ path: { filter_id: await o.linkifier() } }) },
  "PATCH /realm/linkifiers": {
    build: async ({ o }) => ({ params: { ordered_linkifier_ids: (await o.ok("iago", { method: "GET", path: "/realm/linkifiers" })).linkifiers.map((l: { id: number }) => l.id) } }),
  },

  "POST /channel_folders/create": { build: () => ({ params: { name: unique("Folder "), description: "" } }) },
  "GET /channel_folders": { build: none },
  "PATCH /channel_folders/:channel_folder_id": { build: async ({ o }) => ({ path: { channel_folder_id: await o.folder() }, params: { description: "changed" } }) },
  "PATCH /channel_folders": {
    build: async ({ o }) => ({ params: { order: (await o.ok("iago", { method: "GET", path: "/channel_folders" })).channel_folders.map((f: { id: number }) => f.id) } }),
  },

  // Invitations: the one revoked or resent was sent by othello, a member who is none of the callers.
  "POST /invites": { build: () => ({ params: { invitee_emails: `${unique("guest")}@example.com`, stream_ids: [] } }) },
  "POST /invites/multiuse": { build: none },
  "GET /invites": { build: none },
  "DELETE /invites/:invite_id": { build: async ({ o }) => ({ path: { invite_id: await o.invite("othello") } }) },
  "DELETE /invites/multiuse/:invite_id": { build: async ({ o }) => ({ path: { invite_id: await o.multiuseInvite("iago") } }) },
  "POST /invites/:invite_id/resend": { build: async ({ o }) => ({ path: { invite_id: await o.invite("othello") } }) },

  // Each cell starts with no export on record, so the one-at-a-time and weekly bounds never answer first.
  "POST /export/realm": {
    build: async ({ o }) => {
      await o.realm.deps.store.db.deleteFrom("realm_exports").execute();
      return { params: { export_type: "public" } };
    },
  },
  "GET /export/realm": { build: none },
  "GET /export/realm/consents": { build: none },

  "GET /realm/emoji": { build: none },
  "POST /realm/emoji/:emoji_name": { build: () => ({ path: { emoji_name: unique("newemoji") }, files: [{ filename: "e.png", content: PNG, contentType: "image/png" }] }) },
  "DELETE /realm/emoji/:emoji_name": { build: async ({ o }) => ({ path: { emoji_name: await o.emoji("othello") } }) },

  "POST /users/me/apns_device_token": { build: () => ({ params: { token: "c0ffee".repeat(10), appid: "org.zulip.Zulip" } }) },
  "DELETE /users/me/apns_device_token": {
    build: async ({ o, caller }) => {
      const token = "beef".repeat(16);
      await o.pushDevice(caller, "apns", token);
      return { params: { token } };
    },
  },
  "POST /users/me/android_gcm_reg_id": { build: () => ({ params: { token: "fcm-token-1" } }) },
  "DELETE /users/me/android_gcm_reg_id": {
    build: async ({ o, caller }) => {
      await o.pushDevice(caller, "fcm", "fcm-token-2");
      return { params: { token: "fcm-token-2" } };
    },
  },
  "POST /mobile_push/register": { build: async ({ o, caller }) => ({ params: o.pushRegistration(await o.clientDevice(caller)) }) },
  "POST /mobile_push/e2ee/test_notification": { build: async ({ o, caller }) => ({ params: { device_id: await o.e2eeDevice(caller) } }) },
  "POST /mobile_push/test_notification": {
    build: async ({ o, caller }) => {
      const token = "fcm-test-token";
      await o.pushDevice(caller, "fcm", token);
      return { params: { token } };
    },
  },

  "POST /register_client_device": { build: none },
  "POST /remove_client_device": { build: async ({ o, caller }) => ({ params: { device_id: await o.clientDevice(caller) } }) },

  "GET /bot_storage": { build: none },
  "PUT /bot_storage": { build: () => ({ params: { storage: { matrix: "value" } } }) },
  "DELETE /bot_storage": { build: none },

  "PATCH /realm": { build: () => ({ params: { description: unique("Described ") } }) },
};
