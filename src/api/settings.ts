/** Personal settings (Zulip's PATCH /settings) and the realm's defaults for new users (spec 4.2). */
import { updateRealmUserDefaults } from "../actions/realm-defaults.js";
import { updateOwnSettings } from "../actions/user-settings.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { settingParams, suppliedSettings } from "./setting-params.js";

const personal = settingParams({ personal: true });
const realmDefaults = settingParams({ personal: false });

export const updateSettings = endpoint({
  method: "PATCH",
  path: "/settings",
  auth: "user",
  params: { full_name: p.str().optional(), old_password: p.str().optional(), new_password: p.str().optional(), ...personal },
  async handler(ctx, params) {
    await updateOwnSettings(ctx.deps, ctx.realm, ctx.user, {
      fullName: params.full_name,
      oldPassword: params.old_password,
      newPassword: params.new_password,
      settings: suppliedSettings(params, personal),
    });
  },
});

export const updateRealmDefaults = endpoint({
  method: "PATCH",
  path: "/realm/user_settings_defaults",
  auth: "admin",
  params: realmDefaults,
  async handler(ctx, params) {
    await updateRealmUserDefaults(ctx.deps, ctx.realm, suppliedSettings(params, realmDefaults));
  },
});

export const settingsEndpoints = [updateSettings, updateRealmDefaults];
