/**
 * Who may see a user's real email address (spec section 2, the email_address_visibility setting of
 * spec 4.2), and the API email shown instead. As in Zulip, the API email (users.email) is the real
 * address only while its owner's visibility is "everyone"; otherwise it is the placeholder
 * `user{id}@{realm host}`, so every output that prints users.email (messages, recipients, user
 * objects) hides the address without asking who is looking. delivery_email is then shown per
 * viewer, by canSeeDeliveryEmail.
 */
import type { Config } from "../config.js";
import { ApiError } from "../errors.js";
import { isValidEmail } from "../lib/email.js";
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

/** The configuration that names fake email domains. */
export type EmailDomainConfig = Pick<Config, "externalHost" | "fakeEmailDomain">;

/**
 * The domain of bot and placeholder addresses, as Zulip's get_fake_email_domain picks it: the
 * realm's host (`SUB.EXTERNAL_HOST`, port and all) when `bot@host` is a valid address, else
 * FAKE_EMAIL_DOMAIN (by default EXTERNAL_HOST without its port). So the default install
 * (`localhost:9991`) gives `…@localhost`, an address Django's validator allows (issue 15: bots
 * could not be created in the root realm there).
 */
export function fakeEmailDomain(config: EmailDomainConfig, subdomain: string): string {
  const realmHost = subdomain === "" ? config.externalHost : `${subdomain}.${config.externalHost}`;
  if (isValidEmail(`bot@${realmHost}`)) return realmHost;
  const fallback = config.fakeEmailDomain ?? config.externalHost.replace(/:\d+$/, "");
  if (isValidEmail(`bot@${fallback}`)) return fallback;
  throw new ApiError(`${fallback} is not a valid domain. Consider setting the FAKE_EMAIL_DOMAIN setting.`);
}

/** The API email a user should have for a visibility setting. */
export function apiEmailFor(user: Pick<UserRow, "id" | "delivery_email" | "is_bot">, visibility: number, domain: string): string {
  if (user.is_bot || visibility === EMAIL_VISIBILITY.EVERYONE) return user.delivery_email;
  return `user${user.id}@${domain}`;
}
