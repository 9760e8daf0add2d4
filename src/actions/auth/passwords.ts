/**
 * Setting a password for someone (the operator's `manage set-password`) and resetting one by mail
 * (`manage send-password-reset`, and the "forgot password" form at /accounts/password/reset/,
 * Zulip's password reset flow). A reset link carries a token that needs no table: an HMAC of the
 * realm, user and expiry keyed by the account's password hash, API key and address, so it stops
 * working once the password (or key, or address) changes — one use — and after RESET_LINK_SECONDS
 * (Django's PasswordResetTokenGenerator works the same way, which is what Zulip uses).
 */
import { auditUserChange } from "../users/user-audit.js";
import { createHmac } from "node:crypto";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { realmUrl } from "../../lib/realm-url.js";
import { constantTimeEqual, hashPassword } from "../../lib/secrets.js";
import { mailTransport, type MailMessage } from "../../mail/transport.js";
import { errorFields, logLine } from "../../lib/log.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { getRealmById, getRealmBySubdomain } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserByDeliveryEmail, getUserById, updateUser } from "../../store/users.js";

/** Zulip's minimum (PASSWORD_MIN_LENGTH); the settings and invitation forms use the same. */
export const MIN_PASSWORD_LENGTH = 6;
/** Bounds the argon2 input: longer passwords add nothing but hashing work (docs/LIMITS.md). */
export const MAX_PASSWORD_LENGTH = 1000;
/** How long a reset link works: Zulip's reset mail says 24 hours. */
export const RESET_LINK_SECONDS = 24 * 60 * 60;

export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) throw new ApiError("New password is too weak!");
  if (length > MAX_PASSWORD_LENGTH) throw new ApiError(`The password is longer than ${MAX_PASSWORD_LENGTH} characters.`);
}

/** Sets a checked password; browser sessions end with it (their hash covers the password hash). */
export async function doSetPassword(deps: AppDeps, tx: Tx, actor: UserRow | null, user: UserRow, password: string): Promise<void> {
  await updateUser(tx, user.id, { password_hash: await hashPassword(password) });
  await auditUserChange(deps, tx, "user_password_changed", actor, user);
}

function resetMac(user: UserRow, payload: string): string {
  const key = `parley-password-reset\u0000${user.password_hash ?? ""}\u0000${user.api_key}\u0000${user.delivery_email}`;
  return createHmac("sha256", key).update(payload).digest("base64url");
}

/** `realm.user.expiry.mac`, all URL-safe. */
export function passwordResetToken(user: UserRow, now: number): string {
  const payload = `${user.realm_id}.${user.id}.${now + RESET_LINK_SECONDS}`;
  return `${payload}.${resetMac(user, payload)}`;
}

export function passwordResetMail(deps: AppDeps, realm: RealmRow, user: UserRow): MailMessage {
  const link = `${realmUrl(deps.config.externalHost, realm.string_id)}/accounts/password/reset/${passwordResetToken(user, deps.clock.now())}/`;
  return {
    from: deps.config.mailFrom,
    to: user.delivery_email,
    subject: `Reset your password for ${realm.name}`,
    text:
      `Somebody (possibly you) asked to reset the password of ${user.delivery_email} in ${realm.name}.\n\n` +
      `To choose a new password, open this link within 24 hours:\n${link}\n\n` +
      "If you did not ask for this, ignore this message: your password stays as it is.\n",
    date: new Date(deps.clock.now() * 1000),
  };
}

/** Mails a reset link to an active human; resolves once the transport took it. */
export async function doSendPasswordReset(deps: AppDeps, realm: RealmRow, user: UserRow): Promise<void> {
  if (!user.is_active || user.is_bot) throw new ApiError("Only active human accounts can reset their password.");
  await mailTransport(deps.config).send(passwordResetMail(deps, realm, user));
}

const invalidLink = () => new ApiError("The password reset link is invalid or has expired; ask for a new one.");

/** The account a reset token names, if the token is genuine, unexpired and unused. */
async function accountOfToken(deps: AppDeps, tx: Tx, token: string): Promise<{ realm: RealmRow; user: UserRow }> {
  const match = /^(\d{1,15})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) throw invalidLink();
  const [realmId, userId, expiry] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const realm = await getRealmById(tx, realmId);
  const user = realm && !realm.deactivated ? await getUserById(tx, realmId, userId) : undefined;
  if (!realm || !user || !user.is_active || user.is_bot || expiry < deps.clock.now()) throw invalidLink();
  if (!constantTimeEqual(resetMac(user, `${realmId}.${userId}.${expiry}`), match[4])) throw invalidLink();
  return { realm, user };
}

/** Whether a reset link can still be used (GET shows the form only then). */
export async function checkPasswordResetLink(deps: AppDeps, token: string): Promise<{ realm: RealmRow; user: UserRow }> {
  return accountOfToken(deps, readTx(deps.store), token);
}

/**
 * The "forgot password" form: mails a link when the address is an active human of the realm,
 * and answers the same either way, so the form does not tell who has an account.
 */
export async function requestPasswordReset(deps: AppDeps, subdomain: string, email: string): Promise<void> {
  const tx = readTx(deps.store);
  const realm = await getRealmBySubdomain(tx, subdomain);
  const user = realm && !realm.deactivated ? await getUserByDeliveryEmail(tx, realm.id, email.trim()) : undefined;
  if (!realm || !user || !user.is_active || user.is_bot) return;
  try {
    await doSendPasswordReset(deps, realm, user);
  } catch (err) {
    logLine("error", "password reset email could not be sent", { err: errorFields(err) });
  }
}

/** Checks the link, then sets the new password (which makes the link unusable). */
export async function resetPasswordWithToken(deps: AppDeps, token: string, password: string): Promise<UserRow> {
  checkNewPassword(password);
  return transaction(deps.store, async (tx) => {
    const { user } = await accountOfToken(deps, tx, token);
    await doSetPassword(deps, tx, null, user, password);
    return user;
  });
}
