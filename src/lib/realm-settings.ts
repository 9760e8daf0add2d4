/**
 * The realm's long-tail settings, kept as JSON overrides in realms.settings (migration 0001).
 * Channel ids such as `new_stream_announcements_stream_id` live here (spec 4.3 `announce`).
 */
import type { RealmRow } from "../store/types.js";

export function realmSetting(realm: Pick<RealmRow, "settings">, key: string): unknown {
  return (JSON.parse(realm.settings) as Record<string, unknown>)[key];
}

/** The settings JSON with `key` set (or removed when `value` is undefined). */
export function withRealmSetting(realm: Pick<RealmRow, "settings">, key: string, value: unknown): string {
  const settings = JSON.parse(realm.settings) as Record<string, unknown>;
  if (value === undefined) delete settings[key];
  else settings[key] = value;
  return JSON.stringify(settings);
}

/** The channel Notification Bot announces new channels in, if set. */
export function newChannelAnnouncementsChannelId(realm: Pick<RealmRow, "settings">): number | null {
  const id = realmSetting(realm, "new_stream_announcements_stream_id");
  return typeof id === "number" && id > 0 ? id : null;
}

/** Zulip's realm.enable_read_receipts (FL 137): on unless an administrator turned it off. */
export function readReceiptsEnabled(realm: Pick<RealmRow, "settings">): boolean {
  return realmSetting(realm, "enable_read_receipts") !== false;
}

/** Zulip's default digest_weekday: Tuesday (0 is Monday). */
export const DEFAULT_DIGEST_WEEKDAY = 1;

/** The realm's digest settings (Zulip's defaults: off, Tuesday); actions/notifications/digest.ts. */
export function digestSettingsOf(realm: Pick<RealmRow, "settings">): { enabled: boolean; weekday: number } {
  const weekday = realmSetting(realm, "digest_weekday");
  return { enabled: realmSetting(realm, "digest_emails_enabled") === true, weekday: typeof weekday === "number" ? weekday : DEFAULT_DIGEST_WEEKDAY };
}
