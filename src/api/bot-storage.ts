/**
 * Bot storage (Zulip's get/update/remove-bot-storage): the Python bindings' get_storage and
 * update_storage, which zulip_bots' StateHandler uses for `bot_handler.storage`.
 */
import { getBotStorage, removeBotStorage, updateBotStorage } from "../actions/bots/bot-storage.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";

const keys = () => p.json(v.listOf(v.str)).optional();

export const getStorage = endpoint({
  method: "GET",
  path: "/bot_storage",
  auth: "user",
  params: { keys: keys() },
  async handler(ctx, params) {
    return { storage: await getBotStorage(ctx.deps, ctx.user, params.keys) };
  },
});

export const putStorage = endpoint({
  method: "PUT",
  path: "/bot_storage",
  auth: "user",
  params: { storage: p.json(v.entriesOf(v.str)) },
  async handler(ctx, params) {
    await updateBotStorage(ctx.deps, ctx.user, params.storage);
  },
});

export const deleteStorage = endpoint({
  method: "DELETE",
  path: "/bot_storage",
  auth: "user",
  params: { keys: keys() },
  async handler(ctx, params) {
    await removeBotStorage(ctx.deps, ctx.user, params.keys);
  },
});

export const botStorageEndpoints = [getStorage, putStorage, deleteStorage];
