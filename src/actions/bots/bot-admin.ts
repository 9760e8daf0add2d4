/**
 * Changing and deactivating bots (Zulip's update-bot and deactivate-bot): the bot's owner or an
 * administrator; role changes follow the same owner rules as for users (spec 4.11), and a new
 * short name gives the bot a new email (FL 447).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, mustBeAdmin, mustBeOwner } from "../../errors.js";
import { mayChangeRole, roleChangeNeedsOwner } from "../../policy/users.js";
import { transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById, updateUser } from "../../store/users.js";
import { updateBotService } from "../../store/bot-services.js";
import { accessBot, botEmailFor, checkBotEmail, checkBotName, checkPayloadUrl, checkShortName, defaultChannelId, INTERFACE_TYPES } from "./bots.js";
import { checkMemberOrAdmin } from "../caller-checks.js";
import { doDeactivateUser } from "../users/user-activation.js";
import { doChangeDeliveryEmail, doChangeFullName, doChangeRole } from "../users/user-admin.js";
import { presentBotWithChannels, publishBotOwnerChange, publishBotUpdate, publishUserUpdate } from "../users/user-events.js";
import { checkFullName } from "../users/users.js";

export interface UpdateBotInput {
  fullName?: string;
  /** A new short name, which changes the bot's email (FL 447). */
  shortName?: string;
  role?: number;
  botOwnerId?: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  /** A new URL for an outgoing-webhook bot's service, with its payload format (Zulip: 1 unless given). */
  servicePayloadUrl?: string;
  serviceInterface: number;
}

async function checkNewOwner(tx: Tx, realm: RealmRow, ownerId: number): Promise<UserRow> {
  const owner = await getUserById(tx, realm.id, ownerId);
  if (!owner) throw new ApiError("Failed to change owner, no such user");
  if (!owner.is_active) throw new ApiError("Failed to change owner, user is deactivated");
  if (owner.is_bot) throw new ApiError("Failed to change owner, bots can't own other bots");
  return owner;
}

async function checkBotFullName(tx: Tx, bot: UserRow, name: string | undefined): Promise<string | undefined> {
  if (name === undefined || name === bot.full_name) return undefined;
  const fullName = checkFullName(name);
  if (fullName !== bot.full_name) await checkBotName(tx, bot.realm_id, fullName);
  return fullName;
}

/** The bot's new address for a new short name; undefined when there is none or it is the same. */
async function checkNewBotEmail(tx: Tx, deps: AppDeps, realm: RealmRow, bot: UserRow, shortName: string | undefined): Promise<string | undefined> {
  if (shortName === undefined) return undefined;
  const checked = checkShortName(shortName);
  if (botEmailFor(deps, realm, checked) === bot.delivery_email) return undefined;
  return checkBotEmail(tx, deps, realm, checked);
}

/** PATCH /bots/{bot_id}; answers with the bot's settings as they now are. */
export async function updateBot(deps: AppDeps, realm: RealmRow, actor: UserRow, botId: number, input: UpdateBotInput): Promise<Record<string, unknown>> {
  checkMemberOrAdmin(actor);
  return transaction(deps.store, async (tx) => {
    const bot = await accessBot(tx, actor, botId);
    const fullName = await checkBotFullName(tx, bot, input.fullName);
    const email = await checkNewBotEmail(tx, deps, realm, bot, input.shortName);
    const role = input.role !== undefined && input.role !== bot.role ? input.role : undefined;
    if (role !== undefined && !mayChangeRole(actor, bot.role, role)) throw roleChangeNeedsOwner(bot.role, role) ? mustBeOwner() : mustBeAdmin();
    const owner = input.botOwnerId === undefined ? undefined : await checkNewOwner(tx, realm, input.botOwnerId);
    const sending = await defaultChannelId(tx, actor, input.defaultSendingStream);
    const events = await defaultChannelId(tx, actor, input.defaultEventsRegisterStream);
    const servicePayloadUrl = input.servicePayloadUrl === undefined ? undefined : checkPayloadUrl(input.servicePayloadUrl, "service_payload_url");
    if (servicePayloadUrl !== undefined && !INTERFACE_TYPES.includes(input.serviceInterface)) throw new ApiError("Invalid interface type");

    if (fullName !== undefined) await doChangeFullName(deps, tx, bot, fullName);
    if (email !== undefined) await doChangeDeliveryEmail(deps, tx, realm, (await getUserById(tx, realm.id, bot.id)) as UserRow, email);
    if (role !== undefined) await doChangeRole(deps, tx, realm, actor, bot, role);
    if (owner !== undefined && owner.id !== bot.bot_owner_id) {
      await updateUser(tx, bot.id, { bot_owner_id: owner.id });
      await publishUserUpdate(deps, tx, realm.id, { user_id: bot.id, bot_owner_id: owner.id });
      await publishBotOwnerChange(deps, tx, bot, owner);
    }
    const defaults = {
      ...(sending !== undefined && { default_sending_channel_id: sending }),
      ...(events !== undefined && { default_events_register_channel_id: events }),
      ...(input.defaultAllPublicStreams !== undefined && { default_all_public_streams: input.defaultAllPublicStreams }),
    };
    const updated = { ...((await getUserById(tx, realm.id, bot.id)) as UserRow), ...defaults };
    const presented = await presentBotWithChannels(tx, updated, deps.config.enableGravatar);
    if (Object.keys(defaults).length > 0) {
      await updateUser(tx, bot.id, defaults);
      for (const key of ["default_sending_stream", "default_events_register_stream", "default_all_public_streams"]) {
        await publishBotUpdate(deps, tx, updated, { [key]: presented[key] });
      }
    }
    if (servicePayloadUrl !== undefined) await doUpdateOutgoingWebhookService(deps, tx, bot, servicePayloadUrl, input.serviceInterface);
    // Zulip answers with the service parameters as given (service_interface defaults to 1) and
    // config_data, which Parley does not take (no embedded bots, no bot config).
    const out: Record<string, unknown> = {
      full_name: updated.full_name,
      avatar_url: presented.avatar_url,
      service_interface: input.serviceInterface,
      service_payload_url: servicePayloadUrl ?? null,
      config_data: null,
      default_sending_stream: presented.default_sending_stream,
      default_events_register_stream: presented.default_events_register_stream,
      default_all_public_streams: updated.default_all_public_streams,
    };
    const botOwner = updated.bot_owner_id === null ? undefined : await getUserById(tx, realm.id, updated.bot_owner_id);
    if (botOwner) out.bot_owner = botOwner.email;
    return out;
  });
}

/**
 * Zulip's do_update_outgoing_webhook_service: the bot's service gets the new URL and payload
 * format (its token stays), and the bot's owners and administrators get realm_bot update with
 * the bot's services. A bot without a service (not an outgoing-webhook bot) is refused; Zulip
 * fails there with a server error.
 */
async function doUpdateOutgoingWebhookService(deps: AppDeps, tx: Tx, bot: UserRow, baseUrl: string, serviceInterface: number): Promise<void> {
  const service = await updateBotService(tx, bot.id, { base_url: baseUrl, interface: serviceInterface });
  if (!service) throw new ApiError("This bot has no outgoing webhook service");
  await publishBotUpdate(deps, tx, bot, { services: [{ base_url: service.base_url, interface: service.interface, token: service.token }] });
}

/** DELETE /bots/{bot_id}. */
export async function deactivateBot(deps: AppDeps, actor: UserRow, botId: number): Promise<void> {
  checkMemberOrAdmin(actor);
  await transaction(deps.store, async (tx) => {
    const bot = await accessBot(tx, actor, botId);
    if (!bot.is_active) throw new ApiError("User is deactivated");
    await doDeactivateUser(deps, tx, actor, bot);
  });
}
