/** Bot endpoints (Zulip's add-bot, get-bots, update-bot, deactivate-bot, get-bot-api-key). */
import { deactivateBot, updateBot } from "../actions/bots/bot-admin.js";
import { createBot, getBotApiKey, listOwnBots, MAX_PAYLOAD_URL_LENGTH, regenerateBotApiKey } from "../actions/bots/bots.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { readTx } from "../store/db.js";
import { roleParam } from "./users.js";

const defaultParams = {
  default_sending_stream: p.str().optional(),
  default_events_register_stream: p.str().optional(),
  default_all_public_streams: p.bool().optional(),
};

export const addBot = endpoint({
  method: "POST",
  path: "/bots",
  auth: "user",
  params: {
    full_name: p.str(),
    short_name: p.str(),
    bot_type: p.int().default(1),
    interface_type: p.int().default(1),
    payload_url: p.str({ maxLength: MAX_PAYLOAD_URL_LENGTH }).optional(),
    ...defaultParams,
  },
  async handler(ctx, params) {
    return createBot(ctx.deps, ctx.realm, ctx.user, {
      fullName: params.full_name,
      shortName: params.short_name,
      botType: params.bot_type,
      interfaceType: params.interface_type,
      defaultSendingStream: params.default_sending_stream,
      defaultEventsRegisterStream: params.default_events_register_stream,
      defaultAllPublicStreams: params.default_all_public_streams,
      payloadUrl: params.payload_url === undefined ? undefined : unquoted(params.payload_url),
    });
  },
});

/** Zulip once took payload_url JSON-encoded (a quoted string); both forms are accepted. */
function unquoted(value: string): string {
  if (!value.startsWith('"')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "string" ? parsed : value;
  } catch {
    return value;
  }
}

export const getBots = endpoint({
  method: "GET",
  path: "/bots",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { bots: await listOwnBots(readTx(ctx.deps.store), ctx.user, ctx.deps.config.enableGravatar) };
  },
});

export const patchBot = endpoint({
  method: "PATCH",
  path: "/bots/:bot_id",
  auth: "user",
  params: {
    bot_id: p.int().path(),
    full_name: p.str().optional(),
    short_name: p.str().optional(),
    role: roleParam.optional(),
    bot_owner_id: p.json(v.int).optional(),
    service_payload_url: p.str({ maxLength: MAX_PAYLOAD_URL_LENGTH }).optional(),
    service_interface: p.int().default(1),
    ...defaultParams,
  },
  async handler(ctx, params) {
    return updateBot(ctx.deps, ctx.realm, ctx.user, params.bot_id, {
      fullName: params.full_name,
      shortName: params.short_name,
      role: params.role,
      botOwnerId: params.bot_owner_id,
      defaultSendingStream: params.default_sending_stream,
      defaultEventsRegisterStream: params.default_events_register_stream,
      defaultAllPublicStreams: params.default_all_public_streams,
      // JSON-encoded in Zulip (check_url); the plain form is accepted too, as for payload_url.
      servicePayloadUrl: params.service_payload_url === undefined ? undefined : unquoted(params.service_payload_url),
      serviceInterface: params.service_interface,
    });
  },
});

export const deleteBot = endpoint({
  method: "DELETE",
  path: "/bots/:bot_id",
  auth: "user",
  params: { bot_id: p.int().path() },
  async handler(ctx, { bot_id }) {
    await deactivateBot(ctx.deps, ctx.user, bot_id);
  },
});

export const getBotKey = endpoint({
  method: "GET",
  path: "/bots/:bot_id/api_key",
  auth: "user",
  params: { bot_id: p.int().path() },
  async handler(ctx, { bot_id }) {
    return { api_key: await getBotApiKey(readTx(ctx.deps.store), ctx.user, bot_id) };
  },
});

export const regenerateBotKey = endpoint({
  method: "POST",
  path: "/bots/:bot_id/api_key/regenerate",
  auth: "user",
  params: { bot_id: p.int().path() },
  async handler(ctx, { bot_id }) {
    return { api_key: await regenerateBotApiKey(ctx.deps, ctx.user, bot_id) };
  },
});

export const botEndpoints = [addBot, getBots, patchBot, deleteBot, getBotKey, regenerateBotKey];
