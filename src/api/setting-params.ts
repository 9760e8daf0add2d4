/**
 * Parameter declarations for personal settings (PATCH /settings) and the realm's defaults for
 * new users (PATCH /realm/user_settings_defaults), built from the one list in lib/user-settings:
 * booleans, integers restricted to their allowed values, strings restricted likewise.
 */
import { invalidParam } from "../errors.js";
import { p, type ParamSpec } from "../http/params.js";
import { BOOLEAN_USER_SETTINGS, INTEGER_USER_SETTINGS, PERSONAL_BOOLEAN_SETTINGS, PERSONAL_ONLY_SETTINGS, STRING_USER_SETTINGS } from "../lib/user-settings.js";

/** Checked with Zulip's own wording by actions/users/user-settings (checkSettingValues). */
const CHECKED_LATER = new Set(["notification_sound", "email_notifications_batching_period_seconds"]);

/** A value from the allowed list; integers without a list must not be negative. */
function allowed<T>(values: readonly T[] | null, name: string) {
  return (value: T) => {
    if (CHECKED_LATER.has(name)) return value;
    const ok = values === null ? typeof value !== "number" || value >= 0 : values.includes(value);
    if (!ok) throw invalidParam(`Invalid ${name}`);
    return value;
  };
}

export function settingParams(opts: { personal: boolean }): Record<string, ParamSpec<unknown>> {
  const keep = (name: string) => opts.personal || !PERSONAL_ONLY_SETTINGS.has(name);
  const table: Record<string, ParamSpec<unknown>> = {};
  const booleans = opts.personal ? [...BOOLEAN_USER_SETTINGS, ...PERSONAL_BOOLEAN_SETTINGS] : BOOLEAN_USER_SETTINGS;
  for (const name of booleans) table[name] = p.bool().optional();
  for (const [name, values] of Object.entries(INTEGER_USER_SETTINGS)) {
    if (keep(name)) table[name] = p.int().check(allowed(values, name)).optional();
  }
  for (const [name, values] of Object.entries(STRING_USER_SETTINGS)) {
    if (keep(name)) table[name] = p.str().check(allowed(values, name)).optional();
  }
  return table;
}

/** The settings present in parsed params. */
export function suppliedSettings(params: Record<string, unknown>, table: Record<string, unknown>): Record<string, boolean | number | string> {
  const out: Record<string, boolean | number | string> = {};
  for (const name of Object.keys(table)) {
    if (params[name] !== undefined) out[name] = params[name] as boolean | number | string;
  }
  return out;
}
