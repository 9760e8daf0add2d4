/** Invitations (spec 4.9; Zulip's invites endpoints): email invitations and reusable links. */
import { MAX_INVITE_EXPIRY_MINUTES, MAX_WELCOME_MESSAGE_LENGTH } from "../actions/invites/invite-checks.js";
import { getInvites, resendInvite, revokeInvite } from "../actions/invites/invite-manage.js";
import { checkInviteUsers, createMultiuseInvite } from "../actions/invites/invites.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { ROLE, ROLES } from "../policy/roles.js";

/** Shared by both kinds of invitation. */
const inviteParams = {
  invite_expires_in_minutes: p.json(v.nullable(v.int)).optional().check((minutes, name) => {
    if (minutes != null && (minutes < 1 || minutes > MAX_INVITE_EXPIRY_MINUTES)) {
      throw invalidParam(`${name} must be between 1 and ${MAX_INVITE_EXPIRY_MINUTES}`);
    }
    return minutes;
  }),
  invite_as: p.int().default(ROLE.MEMBER).check((role, name) => {
    if (!ROLES.includes(role)) throw invalidParam(`Invalid ${name}`);
    return role;
  }),
  group_ids: p.intList().default([]),
  include_realm_default_subscriptions: p.bool().default(false),
  welcome_message_custom_text: p.str({ maxLength: MAX_WELCOME_MESSAGE_LENGTH }).optional(),
};

type InviteParams = { [K in keyof typeof inviteParams]: ReturnType<(typeof inviteParams)[K]["parse"]> };

function inviteRequest(params: InviteParams & { stream_ids: number[] }) {
  return {
    expiresInMinutes: params.invite_expires_in_minutes,
    inviteAs: params.invite_as,
    channelIds: params.stream_ids,
    groupIds: params.group_ids,
    includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
    welcomeMessageCustomText: params.welcome_message_custom_text,
  };
}

export const sendInvites = endpoint({
  method: "POST",
  path: "/invites",
  auth: "user",
  params: { invitee_emails: p.str(), stream_ids: p.intList(), notify_referrer_on_join: p.bool().default(true), ...inviteParams },
  async handler(ctx, params) {
    await checkInviteUsers(ctx.deps, ctx.realm, ctx.user, {
      ...inviteRequest(params),
      inviteeEmails: params.invitee_emails,
      notifyReferrerOnJoin: params.notify_referrer_on_join,
    });
  },
});

export const createInviteLink = endpoint({
  method: "POST",
  path: "/invites/multiuse",
  auth: "user",
  params: { stream_ids: p.intList().default([]), ...inviteParams },
  async handler(ctx, params) {
    return { invite_link: await createMultiuseInvite(ctx.deps, ctx.realm, ctx.user, inviteRequest(params)) };
  },
});

export const listInvites = endpoint({
  method: "GET",
  path: "/invites",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { invites: await getInvites(ctx.deps, ctx.realm, ctx.user) };
  },
});

export const revokeEmailInvite = endpoint({
  method: "DELETE",
  path: "/invites/:invite_id",
  auth: "user",
  params: { invite_id: p.int().path() },
  async handler(ctx, { invite_id }) {
    await revokeInvite(ctx.deps, ctx.realm, ctx.user, invite_id, false);
  },
});

export const revokeInviteLink = endpoint({
  method: "DELETE",
  path: "/invites/multiuse/:invite_id",
  auth: "user",
  params: { invite_id: p.int().path() },
  async handler(ctx, { invite_id }) {
    await revokeInvite(ctx.deps, ctx.realm, ctx.user, invite_id, true);
  },
});

export const resendEmailInvite = endpoint({
  method: "POST",
  path: "/invites/:invite_id/resend",
  auth: "user",
  params: { invite_id: p.int().path() },
  async handler(ctx, { invite_id }) {
    await resendInvite(ctx.deps, ctx.realm, ctx.user, invite_id);
  },
});

export const inviteEndpoints = [sendInvites, createInviteLink, listInvites, revokeEmailInvite, revokeInviteLink, resendEmailInvite];
