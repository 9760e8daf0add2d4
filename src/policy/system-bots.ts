/**
 * Zulip's system bots. Zulip runs Notification Bot as one cross-realm bot; Parley gives each realm
 * an account with its address (actions/notification-bot.ts). Its notices speak for the server,
 * not for a person, so they are not limited by what one user may see.
 */
import type { UserRow } from "../store/types.js";

/** The address Zulip's Notification Bot uses (clients recognise it in `cross_realm_bots`). */
export const NOTIFICATION_BOT_EMAIL = "notification-bot@zulip.com";
export const NOTIFICATION_BOT_NAME = "Notification Bot";

export function isNotificationBot(user: UserRow): boolean {
  return user.is_bot && user.delivery_email.toLowerCase() === NOTIFICATION_BOT_EMAIL;
}
