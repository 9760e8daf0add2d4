/**
 * Talking to the mobile push relay ("bouncer", config `pushBouncerUrl` from PUSH_BOUNCER_URL) and
 * turning its failures into the push error codes of spec section 7 (statuses from zulip-facts
 * section e):
 * - no relay configured, or the relay refuses this server (401/403): ADMIN_ACTION_REQUIRED, 403;
 * - the relay cannot be reached (refused, reset, DNS, timeout): FAILED_TO_CONNECT_BOUNCER, 502;
 * - the relay answers 5xx: INTERNAL_SERVER_ERROR_ON_BOUNCER, 502.
 *
 * Requests, relative to the relay URL:
 * - `POST /api/v1/remotes/push/e2ee/register`, form-encoded like Zulip's register-remote-push-device
 *   (FL 468): realm_url, token_id, token_kind, encrypted_push_registration, bouncer_public_key. A
 *   relay that cannot take the registration answers 400 with Zulip's code for why
 *   (INVALID_BOUNCER_PUBLIC_KEY, REQUEST_EXPIRED, or BAD_REQUEST for a registration it cannot
 *   read); that code becomes the device's push_registration_error_code;
 * - `POST /api/v1/remotes/push/e2ee/notify`, JSON: {realm_url, push_requests: [{token_id,
 *   token_kind, push_key_id, encrypted_data}]}, encrypted_data per lib/push-encryption.ts.
 */
import type { Config } from "../config.js";
import { ApiError } from "../errors.js";

/** How long to wait for the relay before calling it unreachable. */
const BOUNCER_TIMEOUT_MS = 15_000;

export const pushNotConfigured = () =>
  new ApiError("Mobile push notifications are not configured on this server.", "ADMIN_ACTION_REQUIRED", 403);

const bouncerRefused = () =>
  new ApiError("The push notification service refused this server; an administrator must check its registration.", "ADMIN_ACTION_REQUIRED", 403);

const failedToConnect = () =>
  new ApiError("Network error while connecting to the push notification service.", "FAILED_TO_CONNECT_BOUNCER", 502);

const bouncerServerError = () =>
  new ApiError("Internal server error on the push notification service; try again later.", "INTERNAL_SERVER_ERROR_ON_BOUNCER", 502);

/** The relay refused the request itself (a 4xx other than 401/403); `relayCode` is its error code. */
export class RelayRejection extends ApiError {
  constructor(
    message: string,
    readonly relayCode: string,
  ) {
    super(message);
  }
}

export type BouncerBody = { form: Record<string, string> } | { json: unknown };

/** POSTs to the relay; resolves on a 2xx answer, otherwise throws the matching push error. */
export async function postToBouncer(config: Config, path: string, body: BouncerBody): Promise<void> {
  if (!config.pushBouncerUrl) throw pushNotConfigured();
  const request =
    "form" in body
      ? { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body.form).toString() }
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body.json) };
  let response: Response;
  try {
    response = await fetch(config.pushBouncerUrl + path, { method: "POST", ...request, signal: AbortSignal.timeout(BOUNCER_TIMEOUT_MS) });
  } catch {
    throw failedToConnect();
  }
  const text = await response.text().catch(() => "");
  if (response.ok) return;
  if (response.status >= 500) throw bouncerServerError();
  if (response.status === 401 || response.status === 403) throw bouncerRefused();
  let detail = `HTTP ${response.status}`;
  let relayCode = "BAD_REQUEST";
  try {
    const { msg, code } = JSON.parse(text) as { msg?: unknown; code?: unknown };
    if (typeof msg === "string" && msg !== "") detail = msg;
    if (typeof code === "string" && code !== "") relayCode = code;
  } catch {
    // Not Zulip's JSON envelope: the status is all there is to say.
  }
  throw new RelayRejection(`The push notification service rejected the request: ${detail}`, relayCode);
}
