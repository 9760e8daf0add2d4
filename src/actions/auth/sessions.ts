/**
 * Browser sessions (issue 7; spec section 5.3: the resumable-upload endpoint, and file serving,
 * accept a session cookie). A web client logs in with the account's password right after
 * fetch_api_key so that `<img src="/user_uploads/…">` loads, which cannot carry an Authorization
 * header, are authenticated by the cookie.
 *
 * The cookie holds a random token; the row stores only its SHA-256. A session ends after
 * SESSION_SECONDS (Django's default SESSION_COOKIE_AGE, two weeks), on logout, when the user is
 * deactivated (user-activation.ts deletes the rows, as Zulip's delete_user_sessions does), when the
 * realm is deactivated, and when the password or API key changes: the row keeps a digest of both
 * taken at login, compared on every use (Django's session auth hash does this for the password).
 */
import { createHash } from "node:crypto";
import type { AppDeps } from "../../deps.js";
import { nonexistentSubdomain } from "../../errors.js";
import { constantTimeEqual, randomToken } from "../../lib/secrets.js";
import { readTx, transaction } from "../../store/db.js";
import { getRealmById, getRealmBySubdomain } from "../../store/realms.js";
import { deleteExpiredSessions, deleteSessionByKey, getSessionByKey, insertSession, trimSessionsOfUser } from "../../store/sessions.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { checkFetchApiKey } from "./auth.js";

/** Django's SESSION_COOKIE_AGE: two weeks. */
export const SESSION_SECONDS = 14 * 24 * 60 * 60;
/** Older sessions of a user beyond this many are ended at login, so logins cannot grow the table without bound. */
const MAX_SESSIONS_PER_USER = 50;
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewSession {
  token: string;
  user: UserRow;
}

const sessionKey = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Changes whenever the password or the API key does. */
function authHash(user: Pick<UserRow, "password_hash" | "api_key">): string {
  return createHash("sha256").update(`parley-session\u0000${user.password_hash ?? ""}\u0000${user.api_key}`).digest("base64url");
}

/**
 * `POST /accounts/login/`: the password check of fetch_api_key (same errors, same
 * authenticate_by_username rate limit), then a new session for the realm the Host names.
 */
export async function checkLogin(deps: AppDeps, subdomain: string, username: string, password: string): Promise<NewSession> {
  const realm = await getRealmBySubdomain(readTx(deps.store), subdomain);
  if (!realm) throw nonexistentSubdomain();
  const user = await checkFetchApiKey(deps, realm, username, password);
  const token = randomToken(TOKEN_BYTES);
  const now = deps.clock.now();
  await transaction(deps.store, async (tx) => {
    await deleteExpiredSessions(tx, now);
    await insertSession(tx, {
      key: sessionKey(token),
      user_id: user.id,
      realm_id: realm.id,
      auth_hash: authHash(user),
      created_at: now,
      expires_at: now + SESSION_SECONDS,
    });
    await trimSessionsOfUser(tx, user.id, MAX_SESSIONS_PER_USER);
  });
  return { token, user };
}

/** `POST /accounts/logout/`: ends the session the token names, if any. */
export async function doLogout(deps: AppDeps, token: string | undefined): Promise<void> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) return;
  await transaction(deps.store, (tx) => deleteSessionByKey(tx, sessionKey(token)));
}

/**
 * The active user a session token authenticates on the realm the Host names, or null when the
 * token is unknown, expired, of another realm, or no longer valid for its user.
 */
export async function getSessionUser(deps: AppDeps, subdomain: string, token: string): Promise<{ user: UserRow; realm: RealmRow } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const tx = readTx(deps.store);
  const session = await getSessionByKey(tx, sessionKey(token));
  if (!session || Number(session.expires_at) <= deps.clock.now()) return null;
  const [realm, user] = await Promise.all([getRealmById(tx, session.realm_id), getUserById(tx, session.realm_id, session.user_id)]);
  if (!realm || realm.deactivated || realm.string_id !== subdomain) return null;
  if (!user || !user.is_active || !constantTimeEqual(session.auth_hash, authHash(user))) return null;
  return { user, realm };
}
