/**
 * Creating and listing bots (Zulip's add-bot, get-bots): members and administrators create
 * bots they then own; the bot's email is `<short_name>-bot@<realm host>`, and the API key comes
 * back once, to the creator. Generic bots need can_create_bots_group, incoming-webhook bots also
 * pass with can_create_write_only_bots_group; administrators may create any.
 */
import { accessChannelByName } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { isValidEmail } from "../../lib/email.js";
import { generateApiKey } from "../../lib/secrets.js";
import { insertBotService } from "../../store/bot-services.js";
import { fakeEmailDomain } from "../../policy/email-visibility.js";
import { Membership } from "../../policy/group-settings.js";
import { BOT_TYPE, BOT_TYPES, ROLE, isRealmAdmin } from "../../policy/roles.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { activeUserWithFullName, getUserByDeliveryEmail, getUserById, listBotsOwnedBy, updateUser } from "../../store/users.js";
import { doRegenerateApiKey } from "../auth/auth.js";
import { checkMemberOrAdmin } from "../caller-checks.js";
import { presentBotWithChannels, publishUserAdded } from "../users/user-events.js";
import { checkCreateUser, checkFullName } from "../users/users.js";

export interface CreateBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  interfaceType: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** Outgoing-webhook bots: the URL Parley POSTs to when the bot is mentioned or messaged. */
  payloadUrl?: string;
}

/** Parley's bound on an outgoing-webhook URL (docs/LIMITS.md). */
export const MAX_PAYLOAD_URL_LENGTH = 2000;

/** An outgoing-webhook bot's URL: http(s), absolute (Zulip's check_url). */
export function checkPayloadUrl(raw: string | undefined, name = "payload_url"): string {
  const url = raw?.trim() ?? "";
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || !["http:", "https:"].includes(parsed.protocol)) throw new ApiError(`${name} is not a URL`);
  return url;
}

/** Zulip's outgoing-webhook payload formats: 1 generic, 2 Slack-compatible. */
export const INTERFACE_TYPES = [1, 2];

async function checkBotCreationAllowed(tx: Tx, realm: RealmRow, actor: UserRow, botType: number): Promise<void> {
  if (!BOT_TYPES.includes(botType)) throw new ApiError("Invalid bot type");
  if (botType === BOT_TYPE.EMBEDDED) throw new ApiError("Embedded bots are not enabled.");
  if (isRealmAdmin(actor)) return;
  const m = await Membership.load(tx, actor);
  if (m.has(realm.can_create_bots_group_id, { allowEveryone: false })) return;
  const writeOnly = botType === BOT_TYPE.INCOMING_WEBHOOK && m.has(realm.can_create_write_only_bots_group_id, { allowEveryone: false });
  if (!writeOnly) throw new ApiError("Insufficient permission");
}

/** A bot's default channel, named; the empty name clears it. */
export async function defaultChannelId(tx: Tx, actor: UserRow, name: string | undefined): Promise<number | null | undefined> {
  if (name === undefined) return undefined;
  if (name === "") return null;
  return (await accessChannelByName(tx, actor, name)).channel.id;
}

/** Zulip's check_short_name: trimmed, not empty. */
export function checkShortName(raw: string): string {
  const shortName = raw.trim();
  if (shortName === "") throw new ApiError("Bad name or username");
  return shortName;
}

/** A bot's address for a short name: `<short_name>-bot@<realm host>`. */
export function botEmailFor(deps: AppDeps, realm: RealmRow, shortName: string): string {
  return `${shortName}-bot@${fakeEmailDomain(deps.config, realm.string_id)}`;
}

/** A bot's address from its (checked) short name: well-formed and unused. */
export async function checkBotEmail(tx: Tx, deps: AppDeps, realm: RealmRow, shortName: string): Promise<string> {
  const email = botEmailFor(deps, realm, shortName);
  if (!isValidEmail(email)) throw new ApiError("Bad name or username");
  if (await getUserByDeliveryEmail(tx, realm.id, email)) throw new ApiError("Username already in use");
  return email;
}

export async function checkBotName(tx: Tx, realmId: number, fullName: string): Promise<void> {
  if (await activeUserWithFullName(tx, realmId, fullName)) throw new ApiError("Name is already in use!");
}

export async function createBot(deps: AppDeps, realm: RealmRow, actor: UserRow, input: CreateBotInput): Promise<Record<string, unknown>> {
  checkMemberOrAdmin(actor);
  return transaction(deps.store, async (tx) => {
    const shortName = checkShortName(input.shortName);
    const fullName = checkFullName(input.fullName);
    const email = await checkBotEmail(tx, deps, realm, shortName);
    await checkBotName(tx, realm.id, fullName);
    await checkBotCreationAllowed(tx, realm, actor, input.botType);
    if (!INTERFACE_TYPES.includes(input.interfaceType)) throw new ApiError("Invalid interface type");
    const payloadUrl = input.botType === BOT_TYPE.OUTGOING_WEBHOOK ? checkPayloadUrl(input.payloadUrl) : null;
    const sending = await defaultChannelId(tx, actor, input.defaultSendingStream);
    const events = await defaultChannelId(tx, actor, input.defaultEventsRegisterStream);
    const created = await checkCreateUser(
      tx,
      realm,
      { email, fullName, password: null, role: ROLE.MEMBER, botType: input.botType, botOwnerId: actor.id, actingUserId: actor.id },
      deps.clock.now(),
    );
    await updateUser(tx, created.userId, {
      default_sending_channel_id: sending ?? null,
      default_events_register_channel_id: events ?? null,
      default_all_public_streams: input.defaultAllPublicStreams ?? false,
    });
    if (payloadUrl !== null) {
      // Zulip's Service: named after the bot, with a token the bot's server checks.
      await insertBotService(tx, { bot_id: created.userId, name: shortName, base_url: payloadUrl, token: generateApiKey(), interface: input.interfaceType });
    }
    const bot = (await getUserById(tx, realm.id, created.userId)) as UserRow;
    await publishUserAdded(deps, tx, bot);
    const presented = await presentBotWithChannels(tx, bot, deps.config.enableGravatar);
    return {
      user_id: bot.id,
      api_key: bot.api_key,
      avatar_url: presented.avatar_url,
      default_sending_stream: presented.default_sending_stream,
      default_events_register_stream: presented.default_events_register_stream,
      default_all_public_streams: bot.default_all_public_streams,
    };
  });
}

/** GET /bots: the caller's active bots, with their API keys. */
export async function listOwnBots(tx: Tx, actor: UserRow, gravatar: boolean): Promise<Record<string, unknown>[]> {
  checkMemberOrAdmin(actor);
  const out: Record<string, unknown>[] = [];
  for (const bot of await listBotsOwnedBy(tx, actor.id, { activeOnly: true })) {
    const presented = await presentBotWithChannels(tx, bot, gravatar);
    out.push({
      username: bot.email,
      full_name: bot.full_name,
      api_key: bot.api_key,
      avatar_url: presented.avatar_url,
      default_sending_stream: presented.default_sending_stream,
      default_events_register_stream: presented.default_events_register_stream,
      default_all_public_streams: bot.default_all_public_streams,
    });
  }
  return out;
}

/** GET /bots/{bot_id}/api_key (FL 463): a bot's API key, for its owner or an administrator. */
export async function getBotApiKey(tx: Tx, actor: UserRow, botId: number): Promise<string> {
  checkMemberOrAdmin(actor);
  return (await accessBot(tx, actor, botId)).api_key;
}

/** Zulip's access_bot_by_id: its owner or an administrator. */
export async function accessBot(tx: Tx, actor: UserRow, botId: number): Promise<UserRow> {
  const bot = await getUserById(tx, actor.realm_id, botId);
  if (!bot || !bot.is_bot) throw new ApiError("No such bot");
  if (!isRealmAdmin(actor) && bot.bot_owner_id !== actor.id) throw new ApiError("Insufficient permission");
  return bot;
}

/** POST /bots/{bot_id}/api_key/regenerate: the bot's owner or an administrator. */
export async function regenerateBotApiKey(deps: AppDeps, actor: UserRow, botId: number): Promise<string> {
  checkMemberOrAdmin(actor);
  const bot = await accessBot(readTx(deps.store), actor, botId);
  return doRegenerateApiKey(deps, bot, actor);
}
