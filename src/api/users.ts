/**
 * User endpoints: the caller's own account, the user list and single users (spec 4.7), account
 * creation, administration (spec 4.11), deactivation and reactivation.
 */
import { accessUserByIdOrEmail } from "../access/users.js";
import { checkDeactivationActionsParam } from "../actions/users/deactivation-actions.js";
import { checkProfileDataParam } from "../actions/users/profile-data.js";
import { deactivateOwnAccount, deactivateUserAccount, reactivateUserAccount } from "../actions/users/user-activation.js";
import { updateUserAccount } from "../actions/users/user-admin.js";
import { ownUserMembers } from "../actions/users/own-user.js";
import { listUsersForSpectator, listUsersForViewer, presentUsersFor } from "../actions/users/user-views.js";
import { createUserAccount } from "../actions/users/users.js";
import { ApiError } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { ROLES } from "../policy/roles.js";
import { readTx } from "../store/db.js";

export const getOwnUser = endpoint({
  method: "GET",
  path: "/users/me",
  auth: "user",
  params: {},
  handler: (ctx) => ownUserMembers(ctx.deps, ctx.user, ctx.stamp),
});

/** Zulip's create-user: organization administrators create an account directly. */
export const createUser = endpoint({
  method: "POST",
  path: "/users",
  auth: "admin",
  params: { email: p.str(), password: p.str(), full_name: p.str() },
  async handler(ctx, { email, password, full_name }) {
    const created = await createUserAccount(ctx.deps, ctx.realm, ctx.user, { email, fullName: full_name, password });
    return { user_id: created.userId };
  },
});

const viewParams = {
  client_gravatar: p.bool().default(true),
  include_custom_profile_fields: p.bool().default(false),
};

/** Spectators may list users where the realm has public access (FL 387; help/public-access-option). */
export const getUsers = endpoint({
  method: "GET",
  path: "/users",
  auth: "spectator",
  // user_ids (FL 384): only these users; ids that name nobody in the realm are left out.
  params: { ...viewParams, user_ids: p.intList().optional() },
  async handler(ctx, params) {
    const tx = readTx(ctx.deps.store);
    const opts = {
      userIds: params.user_ids,
      gravatar: ctx.deps.config.enableGravatar,
      clientGravatar: params.client_gravatar,
      includeCustomProfileFields: params.include_custom_profile_fields,
    };
    const members = ctx.user ? await listUsersForViewer(tx, ctx.user, opts) : await listUsersForSpectator(tx, ctx.realm, opts);
    return { members };
  },
});

/** GET /users/{user_id} and GET /users/{email} share one route: the segment is an id or an email. */
export const getUser = endpoint({
  method: "GET",
  path: "/users/:user_id",
  auth: "user",
  params: { user_id: p.str().path(), ...viewParams },
  async handler(ctx, params) {
    const tx = readTx(ctx.deps.store);
    const target = await accessUserByIdOrEmail(tx, ctx.user, params.user_id, { forAdmin: false, allowBots: true, allowDeactivated: true });
    const [user] = await presentUsersFor(tx, ctx.user, [target], {
      gravatar: ctx.deps.config.enableGravatar,
      clientGravatar: params.client_gravatar,
      includeCustomProfileFields: params.include_custom_profile_fields,
    });
    return { user };
  },
});

/** A role (spec conventions 7); anything else is a BAD_REQUEST (spec 4.11). */
export const roleParam = p.int().check((role) => {
  if (!ROLES.includes(role)) throw new ApiError("Invalid role");
  return role;
});

export const updateUser = endpoint({
  method: "PATCH",
  path: "/users/:user_id",
  auth: "admin",
  params: {
    user_id: p.str().path(),
    full_name: p.str().optional(),
    role: roleParam.optional(),
    profile_data: p.json(checkProfileDataParam).optional(),
    new_email: p.str().optional(),
  },
  async handler(ctx, params) {
    await updateUserAccount(ctx.deps, ctx.realm, ctx.user, params.user_id, {
      fullName: params.full_name,
      role: params.role,
      profileData: params.profile_data,
      newEmail: params.new_email,
    });
  },
});

export const deactivateUser = endpoint({
  method: "DELETE",
  path: "/users/:user_id",
  auth: "admin",
  params: {
    user_id: p.int().path(),
    // FL 459: also delete the user's profile and/or messages (actions/users/deactivation-actions.ts).
    actions: p.json(checkDeactivationActionsParam).optional(),
    deactivation_notification_comment: p.str({ maxLength: 2000 }).optional(),
  },
  async handler(ctx, { user_id, actions }) {
    await deactivateUserAccount(ctx.deps, ctx.realm, ctx.user, user_id, actions);
  },
});

export const deactivateOwnUser = endpoint({
  method: "DELETE",
  path: "/users/me",
  auth: "user",
  params: {},
  async handler(ctx) {
    await deactivateOwnAccount(ctx.deps, ctx.user);
  },
});

export const reactivateUser = endpoint({
  method: "POST",
  path: "/users/:user_id/reactivate",
  auth: "admin",
  params: { user_id: p.int().path() },
  async handler(ctx, { user_id }) {
    await reactivateUserAccount(ctx.deps, ctx.realm, ctx.user, user_id);
  },
});

export const userEndpoints = [getOwnUser, createUser, getUsers, getUser, updateUser, deactivateUser, deactivateOwnUser, reactivateUser];
