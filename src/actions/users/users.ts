/**
 * Creating accounts. `checkCreateUser` validates (every failure is a Zulip-style error, nothing
 * written); `doCreateUser` writes the user, puts them in their role's system group and copies the
 * realm's current user-settings defaults into their settings (spec 4.2: later default changes never
 * touch existing users). A new user whose default email visibility is not "everyone" gets the
 * placeholder API email at once (policy/email-visibility).
 */
import { realmJsonSetting } from "../../lib/realm-settings.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { mergeSettings } from "../../lib/user-settings.js";
import { EMAIL_VISIBILITY, apiEmailFor, fakeEmailDomain } from "../../policy/email-visibility.js";
import { BOT_TYPES, ROLE, ROLES } from "../../policy/roles.js";
import { transaction, type Tx } from "../../store/db.js";
import { getRealmUserDefaults, insertAuditLog } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserByDeliveryEmail, getUserById, insertUser, updateUser } from "../../store/users.js";
import { generateApiKey, hashPassword } from "../../lib/secrets.js";
import { isValidEmail } from "../../lib/email.js";
import { inviteEmailError } from "../../policy/invites.js";
import { getRealmDomains } from "../realm/realm-domains.js";
import { getChannelsByIds, getDefaultChannelIds } from "../../store/channels.js";
import { setRoleGroups } from "../groups/role-groups.js";
import { doAddSubscriptions, type SubscribeDeps } from "../channels/subscriptions-add.js";
import { publishUserAdded } from "./user-events.js";
import { doSendWelcomeMessages } from "../bots/welcome-bot.js";

export const MAX_FULL_NAME_LENGTH = 100;

export interface NewUserInput {
  email: string;
  fullName: string;
  password: string | null;
  role?: number;
  botType?: number | null;
  botOwnerId?: number | null;
  actingUserId?: number | null;
  /** Created through POST /users: date_joined moves to the first login (FL 475). */
  viaApi?: boolean;
  /**
   * Domain of placeholder addresses (policy/email-visibility fakeEmailDomain); needed when the
   * realm's default email visibility hides new users' addresses.
   */
  emailDomain?: string;
}

export interface CreatedUser {
  userId: number;
  email: string;
  apiKey: string;
}

/** Zulip's full-name rules: trimmed, non-empty, at most 100 characters, no control characters. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw new ApiError("Name too short!");
  if ([...name].length > MAX_FULL_NAME_LENGTH) throw new ApiError("Name too long!");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ApiError("Invalid characters in name!");
  return name;
}

export async function checkCreateUser(tx: Tx, realm: RealmRow, input: NewUserInput, now: number): Promise<CreatedUser> {
  const email = input.email.trim();
  if (!isValidEmail(email)) throw new ApiError(`Invalid email address '${email}'`);
  const fullName = checkFullName(input.fullName);
  const role = input.role ?? ROLE.MEMBER;
  if (!ROLES.includes(role)) throw new ApiError("Invalid role");
  const botType = input.botType ?? null;
  if (botType !== null && !BOT_TYPES.includes(botType)) throw new ApiError("Invalid bot_type");
  if (botType !== null && input.botOwnerId != null) {
    const owner = await getUserById(tx, realm.id, input.botOwnerId);
    if (!owner || !owner.is_active || owner.is_bot) throw new ApiError("Invalid bot owner");
  }
  if (await getUserByDeliveryEmail(tx, realm.id, email)) throw new ApiError(`Email '${email}' already in use`);
  if (botType === null && input.emailDomain === undefined && (await defaultEmailVisibility(tx, realm)) !== EMAIL_VISIBILITY.EVERYONE) {
    throw new ApiError("This organization hides new users' email addresses; the realm host is needed to create the account.");
  }
  return doCreateUser(tx, realm, { ...input, email, fullName, role, botType }, now);
}

async function defaultEmailVisibility(tx: Tx, realm: RealmRow): Promise<number> {
  return Number(mergeSettings(await getRealmUserDefaults(tx, realm.id)).email_address_visibility);
}

export async function doCreateUser(tx: Tx, realm: RealmRow, input: NewUserInput, now: number): Promise<CreatedUser> {
  const apiKey = generateApiKey();
  const role = input.role ?? ROLE.MEMBER;
  const userId = await insertUser(tx, {
    realm_id: realm.id,
    email: input.email,
    delivery_email: input.email,
    full_name: input.fullName,
    role,
    is_bot: input.botType != null,
    bot_type: input.botType ?? null,
    bot_owner_id: input.botType != null ? (input.botOwnerId ?? null) : null,
    date_joined: now,
    last_login: null,
    api_key: apiKey,
    password_hash: input.password ? await hashPassword(input.password) : null,
    default_sending_channel_id: null,
    default_events_register_channel_id: null,
    settings: await getRealmUserDefaults(tx, realm.id),
    // The realm's default_avatar_source (FL 456): Gravatar ("G") or a Jdenticon-style image ("J").
    avatar_source: realmJsonSetting(realm, "default_avatar_source"),
  });
  const visibility = await defaultEmailVisibility(tx, realm);
  if (input.botType == null && visibility !== EMAIL_VISIBILITY.EVERYONE && input.emailDomain !== undefined) {
    const user = { id: userId, delivery_email: input.email, is_bot: false };
    await updateUser(tx, userId, { email: apiEmailFor(user, visibility, input.emailDomain) });
  }
  await setRoleGroups(tx, realm, { id: userId, date_joined: now }, null, role, now);
  await insertAuditLog(tx, {
    realm_id: realm.id,
    event_type: input.botType != null ? "bot_created" : "user_created",
    event_time: now,
    acting_user_id: input.actingUserId ?? null,
    modified_user_id: userId,
    extra_data: input.viaApi ? { role, created_via_api: true } : { role },
  });
  return { userId, email: input.email, apiKey };
}

/**
 * A new human's first subscriptions (Zulip's set_up_streams_and_groups_for_new_human_user): the
 * given channels, archived ones left out, with the usual subscription events but no "subscribed
 * you" notice. Without an invitation the list is the realm's default channels.
 */
export async function subscribeNewUser(deps: SubscribeDeps, tx: Tx, realm: RealmRow, user: UserRow, channelIds?: readonly number[]): Promise<void> {
  const ids = channelIds ?? (await getDefaultChannelIds(tx, realm.id));
  const channels = (await getChannelsByIds(tx, realm.id, [...new Set(ids)])).filter((c) => !c.deactivated);
  await doAddSubscriptions(deps, tx, realm, null, channels, [user]);
}

/** Zulip's JsonableError for an administrator without the can_create_users permission. */
export const cannotCreateUsers = () => new ApiError("User not authorized to create users");

/**
 * POST /users: an administrator whom the server's operators granted can_create_users (FL 36)
 * creates an account (Zulip's create-user). Everyone in the realm hears of it (realm_user add),
 * and the account starts subscribed to the realm's default channels.
 */
/** Zulip's create_user_backend: email_allowed_for_realm under emails_restricted_to_domains. */
async function checkEmailAllowed(tx: Tx, realm: RealmRow, email: string): Promise<void> {
  if (!realm.emails_restricted_to_domains || !isValidEmail(email)) return;
  const error = inviteEmailError(realm, await getRealmDomains(tx, realm.id), email);
  if (error === "Outside your domain.") throw new ApiError(`Email '${email}' not allowed in this organization`);
  if (error) throw new ApiError(error);
}

export async function createUserAccount(
  deps: AppDeps,
  realm: RealmRow,
  actor: UserRow,
  input: { email: string; fullName: string; password: string },
): Promise<CreatedUser> {
  if (!actor.can_create_users) throw cannotCreateUsers();
  return transaction(deps.store, async (tx) => {
    await checkEmailAllowed(tx, realm, input.email.trim());
    const created = await checkCreateUser(
      tx,
      realm,
      { ...input, actingUserId: actor.id, viaApi: true, emailDomain: fakeEmailDomain(deps.config, realm.string_id) },
      deps.clock.now(),
    );
    const user = (await getUserById(tx, realm.id, created.userId)) as UserRow;
    await publishUserAdded(deps, tx, user);
    await subscribeNewUser(deps, tx, realm, user);
    await doSendWelcomeMessages(deps, tx, realm, user, null);
    return created;
  });
}
