/**
 * Subscription endpoints: list, subscribe (creating missing channels), unsubscribe, the bulk
 * add/delete form, per-subscription settings and a user's subscription status.
 */
import { getSubscriptionStatus, getUserChannelIds, listSubscriptionObjects } from "../actions/channels/channel-views.js";
import { checkSubscribe, type SubscribeInput } from "../actions/channels/subscribe.js";
import { checkUpdateSubscriptionProperties, type PropertyChange } from "../actions/channels/subscription-properties.js";
import { checkUnsubscribe } from "../actions/channels/unsubscribe.js";
import { ApiError, invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { isHexColor } from "../policy/channel-settings.js";
import { readTx, transaction } from "../store/db.js";
import { includeSubscribersParam, newChannelParams, newChannelSettings } from "./channel-params.js";

const entry = v.object({
  name: v.field(v.str),
  description: v.optionalField(v.str),
  color: v.optionalField(v.str),
});

/** subscriptions / add entries; Zulip names a bad color "add.color" in both places. */
const entries: v.Validator<SubscribeInput["entries"]> = (value, name) => {
  const list = v.listOf(entry)(value, name);
  for (const e of list) if (e.color !== undefined && !isHexColor(e.color)) throw invalidParam("add.color is not a valid hex color code");
  return list;
};

const principals = p.json(v.oneOf<Array<string | number>>(v.listOf(v.str), v.listOf(v.int))).optional();

export const getSubscriptions = endpoint({
  method: "GET",
  path: "/users/me/subscriptions",
  auth: "user",
  params: {
    include_subscribers: includeSubscribersParam(),
  },
  async handler(ctx, { include_subscribers }) {
    return { subscriptions: await listSubscriptionObjects(readTx(ctx.deps.store), ctx.user, include_subscribers !== "false", ctx.deps.clock.now()) };
  },
});

const subscribeParams = {
  subscriptions: p.json(entries),
  principals,
  authorization_errors_fatal: p.bool().default(true),
  announce: p.bool().default(false),
  send_new_subscription_messages: p.bool().default(true),
  ...newChannelParams,
};

export const subscribe = endpoint({
  method: "POST",
  path: "/users/me/subscriptions",
  auth: "user",
  params: subscribeParams,
  async handler(ctx, params) {
    return transaction(ctx.deps.store, (tx) =>
      checkSubscribe(ctx.deps, tx, ctx.realm, ctx.user, {
        entries: params.subscriptions,
        principals: params.principals,
        authorizationErrorsFatal: params.authorization_errors_fatal,
        announce: params.announce,
        sendNewSubscriptionMessages: params.send_new_subscription_messages,
        settings: newChannelSettings(params),
      }),
    );
  },
});

export const unsubscribe = endpoint({
  method: "DELETE",
  path: "/users/me/subscriptions",
  auth: "user",
  params: { subscriptions: p.json(v.listOf(v.str)), principals },
  async handler(ctx, params) {
    return transaction(ctx.deps.store, (tx) => checkUnsubscribe(ctx.deps, tx, ctx.realm, ctx.user, params.subscriptions, params.principals));
  },
});

/** Zulip's update-subscriptions: subscribe to `add` and unsubscribe from `delete` in one transaction. */
export const updateSubscriptions = endpoint({
  method: "PATCH",
  path: "/users/me/subscriptions",
  auth: "user",
  params: { add: p.json(entries).default([]), delete: p.json(v.listOf(v.str)).default([]) },
  async handler(ctx, params) {
    if (params.add.length === 0 && params.delete.length === 0) throw new ApiError('Nothing to do. Specify at least one of "add" or "delete".');
    return transaction(ctx.deps.store, async (tx) => {
      const added =
        params.add.length > 0
          ? await checkSubscribe(ctx.deps, tx, ctx.realm, ctx.user, {
              entries: params.add,
              authorizationErrorsFatal: true,
              announce: false,
              sendNewSubscriptionMessages: false,
              settings: { inviteOnly: false, isWebPublic: false, isDefaultStream: false, groupSettings: {} },
            })
          : { subscribed: {}, already_subscribed: {} };
      const removed = params.delete.length > 0 ? await checkUnsubscribe(ctx.deps, tx, ctx.realm, ctx.user, params.delete) : { removed: [], not_removed: [] };
      return { ...added, ...removed };
    });
  },
});

const propertyChange = v.object({
  stream_id: v.field(v.int),
  property: v.field(v.str),
  value: v.field<unknown>((value) => value),
});

export const updateSubscriptionProperties = endpoint({
  method: "POST",
  path: "/users/me/subscriptions/properties",
  auth: "user",
  params: { subscription_data: p.json(v.listOf(propertyChange)) },
  async handler(ctx, { subscription_data }) {
    await transaction(ctx.deps.store, (tx) => checkUpdateSubscriptionProperties(ctx.deps, tx, ctx.user, subscription_data as PropertyChange[]));
  },
});

/** The single-setting form (update-subscription-property): `value` is a JSON boolean or a plain string. */
export const updateSubscriptionProperty = endpoint({
  method: "PATCH",
  path: "/users/me/subscriptions/:stream_id",
  auth: "user",
  params: { stream_id: p.int().path(), property: p.str(), value: p.str() },
  async handler(ctx, { stream_id, property, value }) {
    const parsed = value === "true" ? true : value === "false" ? false : value;
    await transaction(ctx.deps.store, (tx) => checkUpdateSubscriptionProperties(ctx.deps, tx, ctx.user, [{ stream_id, property, value: parsed }]));
  },
});

export const getUserSubscriptionStatus = endpoint({
  method: "GET",
  path: "/users/:user_id/subscriptions/:stream_id",
  auth: "user",
  params: { user_id: p.int().path(), stream_id: p.int().path() },
  async handler(ctx, { user_id, stream_id }) {
    return { is_subscribed: await getSubscriptionStatus(readTx(ctx.deps.store), ctx.user, user_id, stream_id) };
  },
});

export const getUserChannels = endpoint({
  method: "GET",
  path: "/users/:user_id/channels",
  auth: "user",
  params: { user_id: p.int().path() },
  async handler(ctx, { user_id }) {
    return { subscribed_channel_ids: await getUserChannelIds(readTx(ctx.deps.store), ctx.user, user_id) };
  },
});

export const subscriptionEndpoints = [
  getUserChannels,
  getSubscriptions,
  subscribe,
  unsubscribe,
  updateSubscriptions,
  updateSubscriptionProperties,
  updateSubscriptionProperty,
  getUserSubscriptionStatus,
];
