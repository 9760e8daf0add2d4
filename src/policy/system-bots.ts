/**
 * Zulip's system bots. Zulip runs Notification Bot as one cross-realm bot; Parley gives each realm
 * an account with its address (actions/bots/notification-bot.ts). Its notices speak for the server,
 * not for a person, so they are not limited by what one user may see.
 */
import type { UserRow } from "../store/types.js";

/** The address Zulip's Notification Bot uses (clients recognise it in `cross_realm_bots`). */
export const NOTIFICATION_BOT_EMAIL = "notification-bot@zulip.com";
export const NOTIFICATION_BOT_NAME = "Notification Bot";

export function isNotificationBot(user: UserRow): boolean {
  return user.is_bot && user.delivery_email.toLowerCase() === NOTIFICATION_BOT_EMAIL;
}

/** Zulip's Welcome Bot: it sends new users their first direct messages (zerver/lib/onboarding.py). */
export const WELCOME_BOT_EMAIL = "welcome-bot@zulip.com";
export const WELCOME_BOT_NAME = "Welcome Bot";

/** A system bot by its address and name. */
export interface SystemBot {
  email: string;
  name: string;
}

export const NOTIFICATION_BOT: SystemBot = { email: NOTIFICATION_BOT_EMAIL, name: NOTIFICATION_BOT_NAME };
export const WELCOME_BOT: SystemBot = { email: WELCOME_BOT_EMAIL, name: WELCOME_BOT_NAME };

/** Addresses no person may take: the system bots'. */
export function isSystemBotEmail(email: string): boolean {
  return [NOTIFICATION_BOT_EMAIL, WELCOME_BOT_EMAIL].includes(email.toLowerCase());
}
