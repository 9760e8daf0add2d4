/**
 * HTTP Basic authentication with email:api_key (spec section 5, zulip-facts section h). Every
 * failure is a 401 UNAUTHORIZED carrying `WWW-Authenticate: Basic realm="zulip"`, except a non-Basic
 * scheme (400). The key alone picks the account; the email must then match it.
 */
import { ApiError, unauthorized } from "../errors.js";
import { API_KEY_PATTERN, constantTimeEqual } from "../lib/secrets.js";
import { getUserAndRealmByApiKey } from "../store/auth-rows.js";
import { readTx, type Store } from "../store/db.js";
import type { ChangeStamp } from "../store/change-stamp.js";
import type { RealmRow, UserRow } from "../store/types.js";

export interface BasicCredentials {
  username: string;
  password: string;
}

/** Decodes an Authorization header; undefined when absent. */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined || header === "") return undefined;
  const [scheme, encoded, ...rest] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== "basic") throw new ApiError("This endpoint requires HTTP basic authentication.");
  if (!encoded || rest.length > 0) throw unauthorized("Invalid authorization header for basic auth");
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (!/^[A-Za-z0-9+/=_-]+$/.test(encoded) || colon < 0) {
    throw unauthorized("Invalid authorization header for basic auth");
  }
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Resolves Basic credentials to an active user of the realm named by the Host. */
export async function authenticateApiKey(
  store: Store,
  credentials: BasicCredentials | undefined,
  subdomain: string,
): Promise<{ user: UserRow; realm: RealmRow; stamp: ChangeStamp | null }> {
  if (!credentials) throw unauthorized();
  const apiKey = credentials.password.trim();
  if (!API_KEY_PATTERN.test(apiKey)) throw unauthorized("Malformed API key");
  const found = await getUserAndRealmByApiKey(readTx(store), apiKey);
  if (
    !found ||
    !constantTimeEqual(found.user.api_key, apiKey) ||
    found.user.delivery_email.toLowerCase() !== credentials.username.trim().toLowerCase()
  ) {
    throw unauthorized("Invalid API key");
  }
  if (!found.user.is_active) throw unauthorized("Account is deactivated");
  if (found.realm.deactivated) throw unauthorized("This organization has been deactivated");
  if (found.realm.string_id !== subdomain) throw unauthorized("Account is not associated with this subdomain");
  return found;
}
