/** Channel-folder endpoints (spec 4.5; Zulip's channel_folders operations). */
import {
  MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
  MAX_CHANNEL_FOLDER_NAME_LENGTH,
  createChannelFolder,
  listChannelFoldersForApi,
  reorderChannelFolders,
  updateChannelFolderProperties,
} from "../actions/channels/channel-folders.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { readTx } from "../store/db.js";

const name = p.str({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH });
const description = p.str({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH });

export const createFolder = endpoint({
  method: "POST",
  path: "/channel_folders/create",
  auth: "admin",
  params: { name, description },
  async handler(ctx, params) {
    return { channel_folder_id: await createChannelFolder(ctx.deps, ctx.realm, ctx.user, params.name, params.description) };
  },
});

export const getFolders = endpoint({
  method: "GET",
  path: "/channel_folders",
  auth: "user",
  params: { include_archived: p.bool().default(false) },
  async handler(ctx, { include_archived }) {
    return { channel_folders: await listChannelFoldersForApi(readTx(ctx.deps.store), ctx.realm.id, include_archived) };
  },
});

export const updateFolder = endpoint({
  method: "PATCH",
  path: "/channel_folders/:channel_folder_id",
  auth: "admin",
  params: { channel_folder_id: p.int().path(), name: name.optional(), description: description.optional(), is_archived: p.bool().optional() },
  async handler(ctx, params) {
    await updateChannelFolderProperties(ctx.deps, ctx.realm, ctx.user, params.channel_folder_id, {
      name: params.name,
      description: params.description,
      isArchived: params.is_archived,
    });
  },
});

export const reorderFolders = endpoint({
  method: "PATCH",
  path: "/channel_folders",
  auth: "admin",
  params: { order: p.intList() },
  async handler(ctx, { order }) {
    await reorderChannelFolders(ctx.deps, ctx.realm, order);
  },
});

export const channelFolderEndpoints = [createFolder, getFolders, updateFolder, reorderFolders];
