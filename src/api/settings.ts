/** Personal settings (Zulip's PATCH /settings) and the realm's defaults for new users (spec 4.2). */
import { updateRealmUserDefaults } from "../actions/realm/realm-defaults.js";
import { updateOwnSettings } from "../actions/users/user-settings.js";
import { checkTargetUsersParam, updateSettingsForUsers } from "../actions/users/user-settings-bulk.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { settingParams, suppliedSettings } from "./setting-params.js";

const personal = settingParams({ personal: true });
const realmDefaults = settingParams({ personal: false });

/**
 * PATCH /settings, and the same operation under its two pre-FL-80 paths: Zulip routes
 * `/settings/display` and `/settings/notifications` to the very same view (deprecated aliases,
 * documented under update-settings), so each accepts every setting, not only its old group.
 * With `target_users` (FL 444) an administrator changes the settings of other users instead.
 */
const updateSettingsAt = (path: string) =>
  endpoint({
    method: "PATCH",
    path,
    auth: "user",
    params: {
      full_name: p.str().optional(),
      old_password: p.str().optional(),
      new_password: p.str().optional(),
      target_users: p.json(checkTargetUsersParam).optional(),
      ...personal,
    },
    async handler(ctx, params) {
      if (params.target_users !== undefined) {
        const settings = suppliedSettings(params, personal);
        await updateSettingsForUsers(ctx.deps, ctx.realm, ctx.user, { target: params.target_users, settings, newPassword: params.new_password });
        return;
      }
      await updateOwnSettings(ctx.deps, ctx.realm, ctx.user, {
        fullName: params.full_name,
        oldPassword: params.old_password,
        newPassword: params.new_password,
        settings: suppliedSettings(params, personal),
      });
    },
  });

export const updateSettings = updateSettingsAt("/settings");
export const updateDisplaySettings = updateSettingsAt("/settings/display");
export const updateNotificationSettings = updateSettingsAt("/settings/notifications");

export const updateRealmDefaults = endpoint({
  method: "PATCH",
  path: "/realm/user_settings_defaults",
  auth: "admin",
  params: realmDefaults,
  async handler(ctx, params) {
    await updateRealmUserDefaults(ctx.deps, ctx.realm, suppliedSettings(params, realmDefaults));
  },
});

export const settingsEndpoints = [updateSettings, updateDisplaySettings, updateNotificationSettings, updateRealmDefaults];
