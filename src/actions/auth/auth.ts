/**
 * Obtaining and rotating API keys (spec 4.10, 4.14, section 5; zulip-facts section h).
 */
import { doRemoveAllClientDevices } from "../push/client-devices.js";
import { doRecordFirstLogin } from "./first-login.js";
import { jwtVerify } from "jose";
import type { AppDeps } from "../../deps.js";
import {
  ApiError,
  authenticationFailed,
  passwordAuthDisabled,
  rateLimited,
  realmDeactivated,
  userDeactivated,
} from "../../errors.js";
import { generateApiKey, hashPassword, verifyPassword } from "../../lib/secrets.js";
import { RATE_LIMIT_RULES, reserveAttempt } from "../../lib/rate-limiter.js";
import { readTx, transaction } from "../../store/db.js";
import { insertAuditLog } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { presentUser } from "../../present/present-user.js";
import { getUserByDeliveryEmail, updateUser } from "../../store/users.js";
import { publishBotUpdate } from "../users/user-events.js";

/** A hash of nothing, verified against when the account is unknown so timing reveals nothing. */
let decoyHash: Promise<string> | undefined;
function decoy(): Promise<string> {
  decoyHash ??= hashPassword("parley-decoy-password");
  return decoyHash;
}

/** `POST /fetch_api_key`: email + password → the account's API key. */
export async function checkFetchApiKey(deps: AppDeps, realm: RealmRow, username: string, password: string): Promise<UserRow> {
  if (!realm.password_auth_enabled) throw passwordAuthDisabled();
  if (realm.deactivated) throw realmDeactivated();
  // authenticate_by_username: 5 failed attempts per 30 minutes per account (zulip-facts section
  // c). The account is found first, by the same comparison as the lookup (the database's
  // lower()), so every spelling of one address shares one budget (issue 16, F10); each attempt
  // reserves a slot before the password is checked and gives it back only on success, so
  // concurrent guesses cannot all slip through (F9).
  const user = await getUserByDeliveryEmail(readTx(deps.store), realm.id, username.trim());
  const limitKey = user ? `auth:user:${user.id}` : `auth:${realm.id}:${username.trim().toLowerCase()}`;
  const rules = RATE_LIMIT_RULES.authenticate_by_username;
  const now = deps.clock.now();
  if (deps.rateLimiter) {
    const d = await reserveAttempt(deps.rateLimiter, limitKey, rules, now);
    if (!d.allowed) throw rateLimited(d.retryAfter);
  }
  const ok = await verifyPassword(user?.password_hash ?? (await decoy()), password);
  if (!user || !ok || user.is_bot) throw authenticationFailed();
  if (deps.rateLimiter) await deps.rateLimiter.release(limitKey, rules, now);
  if (!user.is_active) throw userDeactivated();
  return doRecordFirstLogin(deps, user);
}

/**
 * `POST /jwt/fetch_api_key`: a token signed with the realm's configured key whose payload carries
 * an `email` claim (config JWT_AUTH_KEYS, keyed by subdomain).
 */
export async function checkJwtFetchApiKey(deps: AppDeps, realm: RealmRow, token: string): Promise<UserRow> {
  const keyConfig = deps.config.jwtAuthKeys[realm.string_id];
  if (!keyConfig) throw new ApiError("JWT authentication is not enabled for this organization", "BAD_REQUEST", 400);
  if (realm.deactivated) throw realmDeactivated();
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(keyConfig.key), { algorithms: keyConfig.algorithms }));
  } catch {
    throw new ApiError("Bad JSON web token", "BAD_REQUEST", 400);
  }
  if (typeof payload.email !== "string" || payload.email === "") {
    throw new ApiError("No email specified in JSON web token payload", "BAD_REQUEST", 400);
  }
  const user = await getUserByDeliveryEmail(readTx(deps.store), realm.id, payload.email);
  if (!user || user.is_bot) throw authenticationFailed();
  if (!user.is_active) throw userDeactivated();
  return doRecordFirstLogin(deps, user);
}

/**
 * POST /jwt/fetch_api_key's answer (spec 4.14): the key and email, and with `includeProfile` the
 * user object, as the user themselves sees it.
 */
export async function jwtFetchApiKeyAnswer(deps: AppDeps, realm: RealmRow, token: string, includeProfile: boolean): Promise<Record<string, unknown>> {
  const user = await checkJwtFetchApiKey(deps, realm, token);
  const answer: Record<string, unknown> = { api_key: user.api_key, email: user.email };
  if (includeProfile) answer.user = presentUser(user, { gravatar: deps.config.enableGravatar, clientGravatar: false, viewerSeesEmail: true });
  return answer;
}

/**
 * Replaces the user's (or, with `actor` its owner or an administrator, a bot's) API key; the old
 * key stops working at once. A bot's new key reaches those who see its details (realm_bot update,
 * as Zulip's do_regenerate_api_key). The user's client devices, logged in with the old key, are
 * removed with their E2EE push registrations (FL 492).
 */
export async function doRegenerateApiKey(deps: AppDeps, user: UserRow, actor: UserRow = user): Promise<string> {
  const apiKey = generateApiKey();
  await transaction(deps.store, async (tx) => {
    await updateUser(tx, user.id, { api_key: apiKey });
    await insertAuditLog(tx, {
      realm_id: user.realm_id,
      event_type: "user_api_key_changed",
      event_time: deps.clock.now(),
      acting_user_id: actor.id,
      modified_user_id: user.id,
    });
    if (user.is_bot) await publishBotUpdate(deps, tx, user, { api_key: apiKey });
    await doRemoveAllClientDevices(deps, tx, user);
  });
  return apiKey;
}
