/** The user object of spec section 2, built from a row for a given viewer. */
import { ROLE } from "../policy/roles.js";
import { INACCESSIBLE_USER_NAME } from "../policy/user-access.js";
import type { UserRow } from "../store/types.js";
import type { PresentableUser } from "../store/users.js";
import { INACCESSIBLE_USER_AVATAR_PATH, avatarUrl, fullAvatarUrl, type AvatarView } from "../lib/avatar-urls.js";

/** Zulip's timestamp text: ISO 8601 with an explicit +00:00 offset. */
export function isoTimestamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace("Z", "+00:00");
}

/** viewerSeesEmail: whether the viewer may see this user's real email (policy/email-visibility). */
export interface PresentUserOptions extends AvatarView {
  /** Custom profile field values, when the caller asked for them; never shown for bots. */
  profileData?: Record<string, { value: string; rendered_value?: string }>;
}


export function presentUser(user: PresentableUser, opts: PresentUserOptions): Record<string, unknown> {
  const visible = opts.viewerSeesEmail || user.is_bot;
  const out: Record<string, unknown> = {
    user_id: user.id,
    delivery_email: visible ? user.delivery_email : null,
    email: user.email,
    full_name: user.full_name,
    date_joined: isoTimestamp(user.date_joined),
    is_active: user.is_active,
    is_owner: user.role === ROLE.OWNER,
    is_admin: user.role <= ROLE.ADMINISTRATOR,
    is_guest: user.role === ROLE.GUEST,
    // No is_billing_admin: Zulip removed it from user objects at FL 363.
    is_bot: user.is_bot,
    bot_type: user.bot_type,
    bot_owner_id: user.bot_owner_id,
    role: user.role,
    timezone: user.timezone,
    avatar_url: avatarUrl(user, opts),
    avatar_version: user.avatar_version,
    is_imported_stub: user.is_imported_stub,
  };
  if (user.is_deleted) out.is_deleted = true;
  if (opts.profileData && !user.is_bot) out.profile_data = opts.profileData;
  return out;
}

/** An inaccessible user's placeholder address, as Zulip writes it: `user{id}@{fake email domain}`. */
export function inaccessibleUserEmail(userId: number, emailDomain: string): string {
  return `user${userId}@${emailDomain}`;
}

/**
 * The "Unknown user" object that stands for a user the viewer may not access (Zulip's
 * get_data_for_inaccessible_user): the usual fields, with placeholder data whose only variable
 * content is the id.
 */
export function presentInaccessibleUser(userId: number, emailDomain: string): Record<string, unknown> {
  return {
    email: inaccessibleUserEmail(userId, emailDomain),
    user_id: userId,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: ROLE.MEMBER,
    is_bot: false,
    full_name: INACCESSIBLE_USER_NAME,
    timezone: "",
    is_active: true,
    // The Unix epoch, as Zulip's placeholder has it.
    date_joined: "1970-01-01T00:00:00+00:00",
    delivery_email: null,
    avatar_url: INACCESSIBLE_USER_AVATAR_PATH,
    profile_data: {},
    is_imported_stub: false,
  };
}

/** A bot's default channels by name (Zulip reports names, or null when unset). */
export interface BotChannelNames {
  defaultSendingStream: string | null;
  defaultEventsRegisterStream: string | null;
}

/** The bot object of realm_bot events and register's realm_bots (Zulip's Bot schema). */
export function presentBot(bot: UserRow, channels: BotChannelNames, gravatar: boolean): Record<string, unknown> {
  return {
    user_id: bot.id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    default_sending_stream: channels.defaultSendingStream,
    default_events_register_stream: channels.defaultEventsRegisterStream,
    default_all_public_streams: bot.default_all_public_streams,
    avatar_url: fullAvatarUrl(bot, gravatar),
    owner_id: bot.bot_owner_id,
    services: [],
    email: bot.email,
    bot_type: bot.bot_type,
    is_active: bot.is_active,
  };
}
