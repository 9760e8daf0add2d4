/**
 * The expected outcome of every cell of the permission matrix, as data: for each endpoint of
 * ENDPOINTS ("METHOD /path"), what each kind of caller gets with the request permission-samples.ts
 * builds. Reviewed against the spec (§4 per endpoint, §5 authentication, §7 errors) and, where the
 * spec is silent, zulip-facts.md and Zulip's own checks: require_realm_admin (400
 * UNAUTHORIZED_PRINCIPAL), require_member_or_admin (guests, then bots refused), human_users_only
 * (bots refused), and the realm's default group settings (zulip-facts §g).
 */
import type { Identity, Role } from "./matrix-cells.js";

export interface Refusal {
  status: number;
  code: string;
  msg: string;
}
export type Outcome = "ok" | Refusal;
export type Row = Record<Identity, Outcome>;

const refusal = (status: number, code: string, msg: string): Refusal => ({ status, code, msg });
const OK = "ok" as const;

// Authentication failures (spec §5, zulip-facts §h): always 401 UNAUTHORIZED, before any parameter.
const UNAUTHENTICATED_REFUSALS = {
  none: refusal(401, "UNAUTHORIZED", "Not logged in: API authentication or user session required"),
  badKey: refusal(401, "UNAUTHORIZED", "Invalid API key"),
  deactivated: refusal(401, "UNAUTHORIZED", "Account is deactivated"),
  otherRealm: refusal(401, "UNAUTHORIZED", "Account is not associated with this subdomain"),
};

// Role refusals, as Zulip words them (zulip-facts §e: JsonableError, 400).
const NOT_ADMIN = refusal(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
const NO_GUESTS = refusal(400, "BAD_REQUEST", "Not allowed for guest users");
const NO_BOTS = refusal(400, "BAD_REQUEST", "This endpoint does not accept bot requests.");
const INSUFFICIENT = refusal(400, "BAD_REQUEST", "Insufficient permission");
/** Someone else's invitation (Zulip words it so, with the generic code). */
const NOT_REFERRER = refusal(400, "BAD_REQUEST", "Must be an organization administrator");
const NOT_CHANNEL_ADMIN = refusal(400, "BAD_REQUEST", "You do not have permission to administer this channel.");
/** A guest cannot see a public channel it is not subscribed to, so the id is as good as missing. */
const CHANNEL_HIDDEN = refusal(400, "BAD_REQUEST", "Invalid channel ID");
const CANNOT_DELETE = refusal(400, "BAD_REQUEST", "You don't have permission to delete this message");
const NOT_EMOJI_AUTHOR = refusal(400, "BAD_REQUEST", "Must be an organization administrator or emoji author");
/** Bot storage is for bots only since FL 494 (Zulip's update-bot-storage documents the error). */
const NOT_A_BOT = refusal(400, "PERMISSION_DENIED", "Must be a bot user");

/** An endpoint behind authentication: the four unauthenticated callers get 401, the roles as given. */
function authenticated(roles: Record<Role, Outcome>): Row {
  return { ...UNAUTHENTICATED_REFUSALS, ...roles };
}

/** Only administrators and owners; the others get `others`, unless guests or bots are turned away first. */
function adminsOnly(others: Refusal, first: { guest?: Refusal; bot?: Refusal } = {}): Row {
  return authenticated({ guest: first.guest ?? others, member: others, moderator: others, admin: OK, owner: OK, bot: first.bot ?? others });
}

/** No credentials needed: every caller, even with bad credentials, gets the same answer. */
const PUBLIC: Row = { none: OK, badKey: OK, deactivated: OK, otherRealm: OK, guest: OK, member: OK, moderator: OK, admin: OK, owner: OK, bot: OK };
const EVERYONE = authenticated({ guest: OK, member: OK, moderator: OK, admin: OK, owner: OK, bot: OK });
/** human_users_only. */
const HUMANS = authenticated({ guest: OK, member: OK, moderator: OK, admin: OK, owner: OK, bot: NO_BOTS });
/** require_member_or_admin. */
const MEMBERS = authenticated({ guest: NO_GUESTS, member: OK, moderator: OK, admin: OK, owner: OK, bot: NO_BOTS });
/** Closed to guests only (user groups since FL 496, spec 4.13/4.20; the realm's role:members settings). */
const NON_GUESTS = authenticated({ guest: NO_GUESTS, member: OK, moderator: OK, admin: OK, owner: OK, bot: OK });
/** Bots only: every person is refused. */
const BOTS = authenticated({ guest: NOT_A_BOT, member: NOT_A_BOT, moderator: NOT_A_BOT, admin: NOT_A_BOT, owner: NOT_A_BOT, bot: OK });
/** The router's `admin` gate (require_realm_admin; spec §5.4 for the ones the spec shows). */
const ADMINS = adminsOnly(NOT_ADMIN);
const NO_BBB = refusal(400, "BAD_REQUEST", "BigBlueButton is not configured.");
/** A provider the matrix's server has no settings for: Zulip's refusal, the same for every account. */
const unconfigured = (provider: string) => {
  const no = refusal(400, "BAD_REQUEST", `${provider} credentials have not been configured`);
  return authenticated({ guest: no, member: no, moderator: no, admin: no, owner: no, bot: no });
};
/** The router's `owner` gate (require_realm_owner). */
const NOT_OWNER = refusal(400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
const OWNERS = authenticated({ guest: NOT_OWNER, member: NOT_OWNER, moderator: NOT_OWNER, admin: NOT_OWNER, owner: OK, bot: NOT_OWNER });

/**
 * Acting on a user group the administrator made with default settings: its can_manage_group is its
 * creator, and can_manage_all_groups is role:owners.
 */
const GROUP_MANAGERS = adminsOnly(INSUFFICIENT, { guest: NO_GUESTS });
/** require_member_or_admin, then a check only administrators (or the object's owner) pass. */
const memberGate = (others: Refusal): Row => adminsOnly(others, { guest: NO_GUESTS, bot: NO_BOTS });

export const EXPECTATIONS: Readonly<Record<string, Row>> = {
  "GET /server_settings": PUBLIC,
  // Credential-based (spec §4.10, §4.14): the Authorization header is not looked at.
  "POST /fetch_api_key": PUBLIC,
  "POST /jwt/fetch_api_key": PUBLIC,
  // Bots may regenerate their own key (Zulip keeps this one open to bots on purpose).
  "POST /users/me/api_key/regenerate": EVERYONE,

  "POST /register": EVERYONE,
  "GET /events": EVERYONE,
  "DELETE /events": EVERYONE,
  "POST /typing": EVERYONE,
  "POST /users/me/presence": HUMANS,
  "GET /realm/presence": EVERYONE,
  "GET /users/:user_id/presence": EVERYONE,

  "GET /users/me": EVERYONE,
  // require_realm_admin, then can_create_users (FL 36), which only iago holds: an owner without it is refused.
  "POST /users": { ...ADMINS, owner: refusal(400, "BAD_REQUEST", "User not authorized to create users") },
  "GET /users": EVERYONE,
  "GET /users/:user_id": EVERYONE,
  "PATCH /users/:user_id": ADMINS, // spec §4.11
  "DELETE /users/:user_id": ADMINS,
  // Any account may leave, bots included; the fresh owner is not the only one.
  "DELETE /users/me": EVERYONE,
  "POST /users/:user_id/reactivate": ADMINS,
  "PATCH /settings": HUMANS,
  // Zulip routes both legacy paths to the PATCH /settings view (FL 80).
  "PATCH /settings/display": HUMANS,
  "PATCH /settings/notifications": HUMANS,
  "PATCH /realm/user_settings_defaults": ADMINS, // spec §4.2
  "POST /users/me/status": HUMANS, // spec §4.12
  "GET /users/:user_id/status": EVERYONE,
  // FL 407/473: administrators, administrator bots included (access_user_by_id for_admin).
  "POST /users/:user_id/status": adminsOnly(INSUFFICIENT),
  "GET /users/me/alert_words": EVERYONE,
  "POST /users/me/alert_words": EVERYONE,
  "DELETE /users/me/alert_words": EVERYONE,

  // can_create_bots_group is role:members; a bot belonging to othello is only his and the admins' to change.
  "POST /bots": MEMBERS,
  "GET /bots": MEMBERS,
  "PATCH /bots/:bot_id": memberGate(INSUFFICIENT),
  "DELETE /bots/:bot_id": memberGate(INSUFFICIENT),
  "GET /bot_storage": BOTS,
  "PUT /bot_storage": BOTS,
  "DELETE /bot_storage": BOTS,
  "GET /bots/:bot_id/api_key": memberGate(INSUFFICIENT),

  "GET /realm/profile_fields": EVERYONE,
  "POST /realm/profile_fields": ADMINS,
  "PATCH /realm/profile_fields": ADMINS,
  "PATCH /realm/profile_fields/:field_id": ADMINS,
  "DELETE /realm/profile_fields/:field_id": ADMINS,
  "PATCH /users/me/profile_data": HUMANS, // spec §4.16: the field is editable by users
  "DELETE /users/me/profile_data": HUMANS,

  // can_create_groups is role:members; bots may since FL 496 (spec §4.13).
  "POST /user_groups/create": NON_GUESTS,
  "GET /user_groups": NON_GUESTS,
  "PATCH /user_groups/:user_group_id": GROUP_MANAGERS,
  "POST /user_groups/:user_group_id/deactivate": GROUP_MANAGERS,
  // can_add_members_group defaults to the group's managers (spec §4.20).
  "POST /user_groups/:user_group_id/members": GROUP_MANAGERS,
  "POST /user_groups/:user_group_id/subgroups": GROUP_MANAGERS,
  "GET /user_groups/:user_group_id/members": NON_GUESTS,
  "GET /user_groups/:user_group_id/members/:user_id": NON_GUESTS,
  "GET /user_groups/:user_group_id/subgroups": NON_GUESTS,

  "GET /realm/linkifiers": EVERYONE,
  "GET /realm/filters": EVERYONE,
  "POST /realm/filters": ADMINS,
  "PATCH /realm/filters/:filter_id": ADMINS, // spec §4.17
  "DELETE /realm/filters/:filter_id": ADMINS,
  "PATCH /realm/linkifiers": ADMINS,

  "POST /channel_folders/create": ADMINS,
  "GET /channel_folders": EVERYONE,
  "PATCH /channel_folders/:channel_folder_id": ADMINS, // spec §4.5
  "PATCH /channel_folders": ADMINS,

  // can_create_public_channel_group is role:members, which guests never pass (zulip-facts §g).
  "POST /channels/create": NON_GUESTS,
  "GET /streams": EVERYONE,
  "GET /streams/:stream_id": EVERYONE,
  "GET /get_stream_id": EVERYONE,
  // The channel's administrators are its creator and the organization administrators (spec §4.3).
  "PATCH /streams/:stream_id": adminsOnly(NOT_CHANNEL_ADMIN, { guest: CHANNEL_HIDDEN }),
  "DELETE /streams/:stream_id": adminsOnly(NOT_CHANNEL_ADMIN, { guest: CHANNEL_HIDDEN }),
  "GET /streams/:stream_id/members": EVERYONE,
  "POST /default_streams": ADMINS,
  "DELETE /default_streams": ADMINS,

  // Non-guests may join any public channel; guests may not (spec §4.3, can_subscribe_group).
  "GET /users/me/subscriptions": EVERYONE,
  "POST /users/me/subscriptions": NON_GUESTS,
  "DELETE /users/me/subscriptions": EVERYONE,
  "PATCH /users/me/subscriptions": NON_GUESTS,
  "POST /users/me/subscriptions/properties": EVERYONE,
  "PATCH /users/me/subscriptions/:stream_id": EVERYONE,
  "GET /users/:user_id/subscriptions/:stream_id": EVERYONE,

  "POST /messages": EVERYONE,
  "GET /messages/:message_id": EVERYONE, // spec §4.6: a channel message the caller can read
  "GET /messages": EVERYONE,
  "GET /messages/matches_narrow": EVERYONE,
  "POST /messages/flags/narrow": EVERYONE,
  // Moving othello's message to another topic: can_move_messages_between_topics_group is role:everyone.
  "PATCH /messages/:message_id": EVERYONE,
  "GET /messages/:message_id/history": EVERYONE, // spec §4.15
  // Deleting othello's message: can_delete_any_message_group is role:administrators.
  "DELETE /messages/:message_id": adminsOnly(CANNOT_DELETE),
  "POST /messages/flags": EVERYONE,
  "POST /mark_all_as_read": EVERYONE,
  "POST /mark_stream_as_read": EVERYONE,
  "POST /mark_topic_as_read": EVERYONE,
  "POST /messages/render": EVERYONE,
  "POST /messages/:message_id/reactions": EVERYONE, // spec §4.18
  "DELETE /messages/:message_id/reactions": EVERYONE,
  "POST /submessage": EVERYONE, // Zulip's process_submessage: whoever can read the poll may vote
  "GET /users/me/:stream_id/topics": EVERYONE, // spec §4.19
  "POST /user_topics": EVERYONE,
  "PATCH /users/me/subscriptions/muted_topics": EVERYONE, // spec §4.4: the caller is subscribed

  "POST /user_uploads": EVERYONE, // spec §4.22
  "GET /user_uploads/:realm_id_str/*": EVERYONE, // the file is linked in a message everyone can read
  "GET /attachments": EVERYONE,
  "DELETE /attachments/:attachment_id": EVERYONE, // the caller's own upload

  // Push registration is for people's devices (human_users_only; spec §4.21).
  "POST /users/me/apns_device_token": HUMANS,
  "DELETE /users/me/apns_device_token": HUMANS,
  "POST /users/me/android_gcm_reg_id": HUMANS,
  "DELETE /users/me/android_gcm_reg_id": HUMANS,
  "POST /mobile_push/register": HUMANS,
  "POST /mobile_push/e2ee/test_notification": HUMANS,
  "POST /mobile_push/test_notification": HUMANS,
  // Zulip's register_device checks no role (FL 468); a device is the caller's own record.
  "POST /register_client_device": EVERYONE,
  "POST /remove_client_device": EVERYONE,

  // can_invite_users_group is role:members; create_multiuse_invite_group is role:administrators;
  // only the inviter or an administrator may revoke or resend (spec §4.9, §5.5).
  "POST /invites": MEMBERS,
  "POST /invites/multiuse": memberGate(INSUFFICIENT),
  "GET /invites": MEMBERS,
  "DELETE /invites/:invite_id": memberGate(NOT_REFERRER),
  "DELETE /invites/multiuse/:invite_id": memberGate(NOT_REFERRER),
  "POST /invites/:invite_id/resend": memberGate(NOT_REFERRER),

  // can_add_custom_emoji_group is role:members; only administrators or the author remove one.
  // require_realm_admin (zerver/views/realm_export.py).
  "POST /export/realm": ADMINS,
  "GET /export/realm": ADMINS,
  "GET /export/realm/consents": ADMINS,
  "GET /realm/emoji": EVERYONE,
  "POST /realm/emoji/:emoji_name": MEMBERS,
  "DELETE /realm/emoji/:emoji_name": adminsOnly(NOT_EMOJI_AUTHOR),

  "GET /drafts": EVERYONE,
  "POST /drafts": EVERYONE,
  "PATCH /drafts/:draft_id": EVERYONE,
  "DELETE /drafts/:draft_id": EVERYONE,
  "GET /saved_snippets": EVERYONE,
  "POST /saved_snippets": EVERYONE,
  "PATCH /saved_snippets/:saved_snippet_id": EVERYONE, // the caller's own snippet
  "DELETE /saved_snippets/:saved_snippet_id": EVERYONE,
  // The caller's own scheduled messages and reminders, to the shared channel and message.
  "GET /scheduled_messages": EVERYONE,
  "POST /scheduled_messages": EVERYONE,
  "PATCH /scheduled_messages/:scheduled_message_id": EVERYONE,
  "DELETE /scheduled_messages/:scheduled_message_id": EVERYONE,
  "GET /reminders": EVERYONE,
  "POST /reminders": EVERYONE,
  "DELETE /reminders/:reminder_id": EVERYONE,
  // Anyone who can read the message; anyone who may post in the channel (FL 448).
  "GET /messages/:message_id/read_receipts": EVERYONE,
  "GET /streams/:stream_id/email_address": EVERYONE,

  "PATCH /realm": ADMINS,

  // Integrations (issue 17): playgrounds are require_realm_admin; allowed domains
  // require_realm_owner since FL 143, listing them is open; a bot's key is its owner's and the admins'.
  "POST /realm/playgrounds": ADMINS,
  "DELETE /realm/playgrounds/:playground_id": ADMINS,
  "GET /realm/domains": EVERYONE,
  "POST /realm/domains": OWNERS,
  "PATCH /realm/domains/:domain": OWNERS,
  "DELETE /realm/domains/:domain": OWNERS,
  "POST /bots/:bot_id/api_key/regenerate": memberGate(INSUFFICIENT),
  "POST /realm/test_welcome_bot_custom_message": ADMINS,
  // Open to every account; the matrix's server has no BigBlueButton, so everyone gets Zulip's refusal.
  "GET /calls/bigbluebutton/create": authenticated({
    guest: NO_BBB, member: NO_BBB, moderator: NO_BBB, admin: NO_BBB, owner: NO_BBB, bot: NO_BBB,
  }),
  "POST /calls/nextcloud_talk/create": unconfigured("Nextcloud Talk"),
  "POST /calls/constructorgroups/create": unconfigured("Constructor Groups"),
  "POST /calls/webex/create": unconfigured("Webex"),

  // Muting, navigation views and a user's channels are open to every account (zerver/views/
  // muted_users.py, navigation_views.py: no role checks); typing an edit needs only to be the
  // sender; anyone who can read a message may report it or poll its upload's thumbnails.
  "POST /users/me/muted_users/:muted_user_id": EVERYONE,
  "DELETE /users/me/muted_users/:muted_user_id": EVERYONE,
  "GET /navigation_views": EVERYONE,
  "POST /navigation_views": EVERYONE,
  "PATCH /navigation_views/*": EVERYONE,
  "DELETE /navigation_views/*": EVERYONE,
  "GET /users/:user_id/channels": EVERYONE,
  "POST /messages/:message_id/typing": EVERYONE,
  "POST /messages/:message_id/report": EVERYONE,
  "GET /thumbnail/status/:realm_id_str/*": EVERYONE,
  // require_realm_admin (delete_in_topic; x-requires-administrator).
  "POST /streams/:stream_id/delete_topic": ADMINS,
};
