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
 *   token_kind, push_key_id, encrypted_data}]}, encrypted_data per lib/push-encryption.ts;
 * - `POST /api/v1/remotes/push/notify`, JSON, for legacy token registrations (Zulip's
 *   send_notifications_to_bouncer): {user_id, gcm_payload, apns_payload, gcm_options,
 *   android_devices, apple_devices} with the platform tokens.
 * With PUSH_BOUNCER_SERVER_ID and PUSH_BOUNCER_API_KEY set (Zulip's zulip_org_id / zulip_org_key),
 * every request carries them as HTTP Basic credentials, as Zulip's servers authenticate.
 */
import type { Config } from "../../config.js";
import { ApiError } from "../../errors.js";
import { encryptForPushKey, parsePushKey } from "../../lib/push-encryption.js";
import type { ClientDeviceRow } from "../../store/client-devices.js";
import type { PushDeviceRow } from "../../store/push.js";

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
  const auth: Record<string, string> =
    config.pushBouncerServerId && config.pushBouncerApiKey
      ? { authorization: `Basic ${Buffer.from(`${config.pushBouncerServerId}:${config.pushBouncerApiKey}`).toString("base64")}` }
      : {};
  const request =
    "form" in body
      ? { headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body.form).toString() }
      : { headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body.json) };
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

/** A client device that can receive E2EE notifications: a push key and a token the relay took. */
export interface E2eeTarget {
  device: ClientDeviceRow;
  key: Uint8Array;
}

export function e2eeTargets(devices: readonly ClientDeviceRow[]): E2eeTarget[] {
  return devices.flatMap((d) => {
    const key = d.push_key === null ? null : parsePushKey(d.push_key);
    return key && d.push_token_id !== null && d.push_key_id !== null ? [{ device: d, key }] : [];
  });
}

/** One payload to E2EE devices, encrypted to each device's own key and labelled with its id. */
export async function notifyE2eeDevices(config: Config, realmUrl: string, targets: readonly E2eeTarget[], payload: unknown): Promise<void> {
  if (targets.length === 0) return;
  await postToBouncer(config, "/api/v1/remotes/push/e2ee/notify", {
    json: {
      realm_url: realmUrl,
      push_requests: targets.map(({ device, key }) => ({
        token_id: device.push_token_id,
        token_kind: device.push_token_kind,
        push_key_id: device.push_key_id,
        encrypted_data: encryptForPushKey(key, payload),
      })),
    },
  });
}

/** Payloads for legacy token registrations, through the relay as Zulip's servers send them. */
export async function notifyLegacyDevices(config: Config, userId: number, devices: readonly PushDeviceRow[], payloads: Record<string, unknown>): Promise<void> {
  const android = devices.filter((d) => d.kind === "fcm").map((d) => d.token);
  const apple = devices.filter((d) => d.kind === "apns").map((d) => d.token);
  if (android.length === 0 && apple.length === 0) return;
  await postToBouncer(config, "/api/v1/remotes/push/notify", { json: { user_id: userId, ...payloads, android_devices: android, apple_devices: apple } });
}
