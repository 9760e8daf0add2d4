/**
 * Who may see a user's real email address (spec section 2, the email_address_visibility setting of
 * spec 4.2), and the API email shown instead. As in Zulip, the API email (users.email) is the real
 * address only while its owner's visibility is "everyone"; otherwise it is the placeholder
 * `user{id}@{realm host}`, so every output that prints users.email (messages, recipients, user
 * objects) hides the address without asking who is looking. delivery_email is then shown per
 * viewer, by canSeeDeliveryEmail.
 */
import { settingOf } from "../lib/user-settings.js";
import type { UserRow } from "../store/types.js";
import { ROLE } from "./roles.js";

/** Values of email_address_visibility (spec 4.2). */
export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;

type Target = Pick<UserRow, "id" | "is_bot" | "settings">;

/** The user's own setting; bots always show their address. */
export function emailVisibilityOf(user: Target): number {
  if (user.is_bot) return EMAIL_VISIBILITY.EVERYONE;
  return Number(settingOf(user.settings, "email_address_visibility"));
}

/** Whether `viewer` may see the real address of a user with this visibility (you always see your own). */
export function canSeeDeliveryEmail(viewer: Pick<UserRow, "id" | "role">, target: Target): boolean {
  if (viewer.id === target.id) return true;
  switch (emailVisibilityOf(target)) {
    case EMAIL_VISIBILITY.EVERYONE:
      return true;
    case EMAIL_VISIBILITY.MEMBERS:
      return viewer.role !== ROLE.GUEST;
    case EMAIL_VISIBILITY.MODERATORS:
      return viewer.role <= ROLE.MODERATOR;
    case EMAIL_VISIBILITY.ADMINS:
      return viewer.role <= ROLE.ADMINISTRATOR;
    default:
      return false;
  }
}

/**
 * The domain of placeholder addresses: the realm's host (`SUB.EXTERNAL_HOST`) without a port,
 * which an email address cannot carry. Bots' addresses use it too.
 */
export function fakeEmailDomain(externalHost: string, subdomain: string): string {
  const host = externalHost.replace(/:\d+$/, "");
  return subdomain === "" ? host : `${subdomain}.${host}`;
}

/** The API email a user should have for a visibility setting. */
export function apiEmailFor(user: Pick<UserRow, "id" | "delivery_email" | "is_bot">, visibility: number, domain: string): string {
  if (user.is_bot || visibility === EMAIL_VISIBILITY.EVERYONE) return user.delivery_email;
  return `user${user.id}@${domain}`;
}
