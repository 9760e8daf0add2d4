/**
 * One-click unsubscribe (Zulip's one_click_unsubscribe_link and zerver/views/unsubscribe.py): each
 * notification email carries a link that turns the setting behind it off, without logging in, and
 * the `List-Unsubscribe` / `List-Unsubscribe-Post` headers (RFC 2369, RFC 8058) that let mail
 * readers offer the same as a button.
 *
 * Zulip keeps a Confirmation row per link; Parley signs instead: `<realm>.<user>.<mac>`, the MAC an
 * HMAC-SHA256 of the email type and the account, keyed by the user's API key. Nothing is stored;
 * a forged or altered token fails the MAC, and regenerating the API key retires every link.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { realmUrl } from "../../lib/realm-url.js";
import { readTx } from "../../store/db.js";
import { getRealmById } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { updateOwnSettings } from "../users/user-settings.js";

/** Zulip's email types in unsubscribe links, and the setting each turns off. */
export const UNSUBSCRIBE_SETTINGS = {
  missed_messages: "enable_offline_email_notifications",
  digest: "enable_digest_emails",
  login: "enable_login_emails",
  marketing: "enable_marketing_emails",
} as const;

export type UnsubscribeType = keyof typeof UNSUBSCRIBE_SETTINGS;

const isType = (type: string): type is UnsubscribeType => Object.hasOwn(UNSUBSCRIBE_SETTINGS, type);

function mac(user: Pick<UserRow, "id" | "realm_id" | "api_key">, type: UnsubscribeType): Buffer {
  return createHmac("sha256", `parley-unsubscribe\u0000${user.api_key}`).update(`${type}\u0000${user.realm_id}\u0000${user.id}`).digest();
}

export function unsubscribeToken(user: Pick<UserRow, "id" | "realm_id" | "api_key">, type: UnsubscribeType): string {
  return `${user.realm_id}.${user.id}.${mac(user, type).toString("base64url")}`;
}

export function unsubscribeUrl(deps: AppDeps, realm: Pick<RealmRow, "string_id">, user: Pick<UserRow, "id" | "realm_id" | "api_key">, type: UnsubscribeType): string {
  return `${realmUrl(deps.config.externalHost, realm.string_id)}/accounts/unsubscribe/${type}/${unsubscribeToken(user, type)}`;
}

/** The headers that offer one-click unsubscribe to mail readers (RFC 8058: POST to the same URL). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** Zulip's answer to a link it does not know. */
const unknownLink = () => new ApiError("Unknown email unsubscribe request");

/** The account a link names, or "Unknown email unsubscribe request" for any bad or forged link. */
export async function checkUnsubscribeLink(deps: AppDeps, type: string, token: string): Promise<{ realm: RealmRow; user: UserRow; type: UnsubscribeType }> {
  const match = /^(\d{1,10})\.(\d{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!isType(type) || !match) throw unknownLink();
  const tx = readTx(deps.store);
  const realm = await getRealmById(tx, Number(match[1]));
  const user = realm && !realm.deactivated ? await getUserById(tx, realm.id, Number(match[2])) : undefined;
  if (!realm || !user || !user.is_active || user.is_bot) throw unknownLink();
  // Compared as text, not as decoded bytes: the last of 43 base64url characters carries two
  // unused bits, so four spellings decode to the same MAC. A link is known only as it was sent.
  const given = Buffer.from(match[3]);
  const expected = Buffer.from(mac(user, type).toString("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unknownLink();
  return { realm, user, type };
}

/**
 * Follows a link: the setting goes off through the same action as PATCH /settings, so the user's
 * clients hear of it (user_settings update) and what the setting allowed stops waiting.
 */
export async function doUnsubscribeByLink(deps: AppDeps, type: string, token: string): Promise<{ user: UserRow; type: UnsubscribeType }> {
  const { realm, user, type: checked } = await checkUnsubscribeLink(deps, type, token);
  await updateOwnSettings(deps, realm, user, { settings: { [UNSUBSCRIBE_SETTINGS[checked]]: false } });
  return { user, type: checked };
}
