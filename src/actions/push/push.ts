/**
 * Mobile push: legacy token registration (OpenAPI add/remove-apns-token, add/remove-fcm-token), the
 * legacy test notification (test-notify, FL 217) and the E2EE one (spec 4.21; since FL 468 its
 * `device_id` names a client device). E2EE registration itself is in push-registration.ts; message
 * notifications in notifications/.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { realmUrl } from "../../lib/realm-url.js";
import { listClientDevices } from "../../store/client-devices.js";
import { readTx, transaction } from "../../store/db.js";
import { deletePushDevice, listPushDevices, upsertPushDevice } from "../../store/push.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { checkHumanCaller } from "../caller-checks.js";
import { legacyTestPayloads } from "../notifications/push-payloads.js";
import { e2eeTargets, notifyE2eeDevices, notifyLegacyDevices, pushNotConfigured, RelayRejection } from "./push-bouncer.js";

/**
 * Bound on a platform token, in UTF-8 bytes. Zulip allows 4096 characters, but PostgreSQL's unique
 * index on (user, kind, token) holds at most 2704 bytes an entry, so a longer token was a 500
 * (found by fuzzing); real APNs and FCM tokens are at most a few hundred ASCII characters.
 */
const MAX_TOKEN_BYTES = 2048;

export type LegacyTokenKind = "apns" | "fcm";

function checkToken(kind: LegacyTokenKind, token: string): void {
  if (token === "" || Buffer.byteLength(token) > MAX_TOKEN_BYTES) throw new ApiError("Empty or invalid length token");
  // APNs device tokens are hex; FCM registration tokens are opaque.
  if (kind === "apns" && !/^(?:[0-9a-fA-F]{2})+$/.test(token)) throw new ApiError("Invalid APNS token");
}

/**
 * `POST /users/me/apns_device_token` and `POST /users/me/android_gcm_reg_id`. Like every push
 * endpoint here, human users only: bots get no push notifications (Zulip's human_users_only).
 */
export async function doAddPushToken(deps: AppDeps, user: UserRow, kind: LegacyTokenKind, token: string, appId: string | null): Promise<void> {
  checkHumanCaller(user);
  checkToken(kind, token);
  if (appId !== null && !/^[.a-zA-Z0-9-]+$/.test(appId)) throw new ApiError("Invalid app ID");
  await transaction(deps.store, (tx) => upsertPushDevice(tx, { userId: user.id, kind, token, appId, now: deps.clock.now() }));
}

/** `DELETE /users/me/apns_device_token` and `DELETE /users/me/android_gcm_reg_id`. */
export async function doRemovePushToken(deps: AppDeps, user: UserRow, kind: LegacyTokenKind, token: string): Promise<void> {
  checkHumanCaller(user);
  checkToken(kind, token);
  const removed = await transaction(deps.store, (tx) => deletePushDevice(tx, user.id, kind, token));
  if (!removed) throw new ApiError("Token does not exist");
}

/**
 * `POST /mobile_push/e2ee/test_notification` (spec 4.21): to one client device, or to all of the
 * user's devices with a completed E2EE registration (a push key and a registered token). The
 * checks run in Zulip's order: a device that can receive (NO_ACTIVE_PUSH_DEVICE), then a configured
 * relay (ADMIN_ACTION_REQUIRED), then the relay's own answer. Each device gets the payload
 * encrypted to its own push key, labelled with that key's id.
 */
export async function checkSendE2eeTestNotification(deps: AppDeps, realm: RealmRow, user: UserRow, deviceId: number | undefined): Promise<void> {
  checkHumanCaller(user);
  const devices = (await listClientDevices(readTx(deps.store), user.id)).filter((d) => deviceId === undefined || d.id === deviceId);
  const ready = e2eeTargets(devices);
  if (ready.length === 0) throw new ApiError("No active registered push device", "NO_ACTIVE_PUSH_DEVICE");
  if (!deps.config.pushBouncerUrl) throw pushNotConfigured();
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  const payload = { type: "test", realm_name: realm.name, realm_url: url, user_id: user.id, time: deps.clock.now() };
  await notifyE2eeDevices(deps.config, url, ready, payload);
}

/**
 * `POST /mobile_push/test_notification` (test-notify, FL 217): a test notification to the user's
 * legacy token registrations, or to the one named by `token` ("Device not recognized" otherwise);
 * a relay that does not know the token answers INVALID_REMOTE_PUSH_DEVICE_TOKEN, as in Zulip.
 */
export async function checkSendLegacyTestNotification(deps: AppDeps, realm: RealmRow, user: UserRow, token: string | undefined): Promise<void> {
  checkHumanCaller(user);
  const devices = (await listPushDevices(readTx(deps.store), user.id)).filter((d) => token === undefined || d.token === token);
  if (token !== undefined && devices.length === 0) throw new ApiError("Device not recognized", "INVALID_PUSH_DEVICE_TOKEN");
  if (!deps.config.pushBouncerUrl) throw pushNotConfigured();
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  const who = { realmId: realm.id, realmName: realm.name, realmUrl: url, server: deps.config.externalHost, userId: user.id };
  try {
    await notifyLegacyDevices(deps.config, user.id, devices, { ...legacyTestPayloads(who, deps.clock.now()) });
  } catch (e) {
    if (e instanceof RelayRejection && e.relayCode === "INVALID_REMOTE_PUSH_DEVICE_TOKEN") {
      throw new ApiError("Device not recognized by the push bouncer", "INVALID_REMOTE_PUSH_DEVICE_TOKEN");
    }
    throw e;
  }
}
