/**
 * Channel endpoints: create (spec 4.3), list, fetch by id and by name, update, archive, members,
 * and the default-channel set.
 */
import { accessChannelByName } from "../access/channels.js";
import { checkArchiveChannel } from "../actions/channels/archive-channel.js";
import { getChannelObject, getChannelSubscriberIds, listChannelObjects } from "../actions/channels/channel-views.js";
import { checkCreateChannel } from "../actions/channels/create-channel.js";
import { checkAddDefaultChannel, checkRemoveDefaultChannel } from "../actions/channels/default-channels.js";
import { checkUpdateChannel, type GroupSettingChange } from "../actions/channels/update-channel.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from "../policy/channel-settings.js";
import { readTx, transaction } from "../store/db.js";
import {
  groupSettingUpdateParams,
  newChannelParams,
  newChannelSettings,
  pickGroupSettings,
  retentionParam,
  retentionValue,
  topicsPolicyParam,
  topicsPolicyValue,
} from "./channel-params.js";

export const createChannel = endpoint({
  method: "POST",
  path: "/channels/create",
  auth: "user",
  params: {
    name: p.str(),
    description: p.str({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).optional(),
    subscribers: p.intList(),
    announce: p.bool().default(false),
    ...newChannelParams,
  },
  async handler(ctx, params) {
    const channel = await transaction(ctx.deps.store, (tx) =>
      checkCreateChannel(ctx.deps, tx, ctx.realm, ctx.user, {
        ...newChannelSettings(params),
        name: params.name,
        description: params.description,
        subscriberIds: params.subscribers,
        announce: params.announce,
      }),
    );
    return { id: channel.id };
  },
});

export const getChannels = endpoint({
  method: "GET",
  path: "/streams",
  auth: "user",
  params: {
    include_public: p.bool().default(true),
    include_web_public: p.bool().default(false),
    include_subscribed: p.bool().default(true),
    exclude_archived: p.bool().default(true),
    include_all: p.bool().default(false),
    // The pre-FL-356 name of include_all (then admin-only; now anyone's channels they may see).
    include_all_active: p.bool().default(false),
    include_default: p.bool().default(false),
    include_owner_subscribed: p.bool().default(false),
    include_can_access_content: p.bool().default(false),
  },
  async handler(ctx, q) {
    const streams = await listChannelObjects(readTx(ctx.deps.store), ctx.user, {
      includePublic: q.include_public,
      includeWebPublic: q.include_web_public,
      includeSubscribed: q.include_subscribed,
      excludeArchived: q.exclude_archived,
      includeAll: q.include_all,
      includeAllActive: q.include_all_active,
      includeDefault: q.include_default,
      includeOwnerSubscribed: q.include_owner_subscribed,
      includeCanAccessContent: q.include_can_access_content,
    }, ctx.deps.clock.now());
    return { streams };
  },
});

export const getChannelById = endpoint({
  method: "GET",
  path: "/streams/:stream_id",
  auth: "user",
  params: { stream_id: p.int().path() },
  async handler(ctx, { stream_id }) {
    return { stream: await getChannelObject(readTx(ctx.deps.store), ctx.user, stream_id, ctx.deps.clock.now()) };
  },
});

export const getChannelId = endpoint({
  method: "GET",
  path: "/get_stream_id",
  auth: "user",
  params: { stream: p.str() },
  async handler(ctx, { stream }) {
    const { channel } = await accessChannelByName(readTx(ctx.deps.store), ctx.user, stream);
    return { stream_id: channel.id };
  },
});

export const updateChannel = endpoint({
  method: "PATCH",
  path: "/streams/:stream_id",
  auth: "user",
  params: {
    stream_id: p.int().path(),
    description: p.str({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).optional(),
    new_name: p.str().optional(),
    is_private: p.bool().optional(),
    is_web_public: p.bool().optional(),
    history_public_to_subscribers: p.bool().optional(),
    is_default_stream: p.bool().optional(),
    message_retention_days: retentionParam(),
    topics_policy: topicsPolicyParam(),
    folder_id: p.json(v.nullable(v.int)).optional(),
    is_archived: p.bool().optional(),
    ...groupSettingUpdateParams,
  },
  async handler(ctx, params) {
    await transaction(ctx.deps.store, (tx) =>
      checkUpdateChannel(ctx.deps, tx, ctx.realm, ctx.user, params.stream_id, {
        description: params.description,
        newName: params.new_name,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isDefaultStream: params.is_default_stream,
        messageRetentionDays: retentionValue(params.message_retention_days),
        topicsPolicy: topicsPolicyValue(params.topics_policy),
        folderId: params.folder_id,
        isArchived: params.is_archived,
        groupSettings: pickGroupSettings<GroupSettingChange>(params),
      }),
    );
  },
});

export const archiveChannel = endpoint({
  method: "DELETE",
  path: "/streams/:stream_id",
  auth: "user",
  params: { stream_id: p.int().path() },
  async handler(ctx, { stream_id }) {
    await transaction(ctx.deps.store, (tx) => checkArchiveChannel(ctx.deps, tx, ctx.realm, ctx.user, stream_id));
  },
});

export const getChannelMembers = endpoint({
  method: "GET",
  path: "/streams/:stream_id/members",
  auth: "user",
  params: { stream_id: p.int().path() },
  async handler(ctx, { stream_id }) {
    return { subscribers: await getChannelSubscriberIds(readTx(ctx.deps.store), ctx.user, stream_id) };
  },
});

export const addDefaultChannel = endpoint({
  method: "POST",
  path: "/default_streams",
  auth: "admin",
  params: { stream_id: p.int() },
  async handler(ctx, { stream_id }) {
    await transaction(ctx.deps.store, (tx) => checkAddDefaultChannel(ctx.deps, tx, ctx.realm, ctx.user, stream_id));
  },
});

export const removeDefaultChannel = endpoint({
  method: "DELETE",
  path: "/default_streams",
  auth: "admin",
  params: { stream_id: p.int() },
  async handler(ctx, { stream_id }) {
    await transaction(ctx.deps.store, (tx) => checkRemoveDefaultChannel(ctx.deps, tx, ctx.realm, ctx.user, stream_id));
  },
});

export const channelEndpoints = [
  createChannel,
  getChannels,
  getChannelById,
  getChannelId,
  updateChannel,
  archiveChannel,
  getChannelMembers,
  addDefaultChannel,
  removeDefaultChannel,
];
