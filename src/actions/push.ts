/**
 * Mobile push devices (OpenAPI add/remove-apns-token and add/remove-fcm-token, Zulip 11's
 * register-push-device) and the E2EE test notification (spec 4.21).
 */
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { encryptForDevice, parseDevicePublicKey } from "../lib/push-encryption.js";
import { realmUrl } from "../lib/realm-url.js";
import { readTx, transaction } from "../store/db.js";
import { deletePushDevice, listPushDevices, upsertPushDevice } from "../store/push.js";
import type { RealmRow, UserRow } from "../store/types.js";
import { checkHumanCaller } from "./caller-checks.js";
import { postToBouncer } from "./push-bouncer.js";

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
  await transaction(deps.store, (tx) => upsertPushDevice(tx, { userId: user.id, kind, token, appId, publicKey: null, now: deps.clock.now() }));
}

/** `DELETE /users/me/apns_device_token` and `DELETE /users/me/android_gcm_reg_id`. */
export async function doRemovePushToken(deps: AppDeps, user: UserRow, kind: LegacyTokenKind, token: string): Promise<void> {
  checkHumanCaller(user);
  checkToken(kind, token);
  const removed = await transaction(deps.store, (tx) => deletePushDevice(tx, user.id, kind, token));
  if (!removed) throw new ApiError("Token does not exist");
}

export interface E2eeRegistration {
  pushAccountId: number;
  tokenKind: LegacyTokenKind;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/**
 * `POST /mobile_push/register` (Zulip 11, feature level 406, reduced to what the test notification
 * needs): the device's X25519 key is kept to encrypt notifications to; the platform token stays
 * inside `encrypted_push_registration`, which only the relay can open, and is handed to the relay
 * when one is configured. Registering the same push_account_id again refreshes the key. A device
 * registered while no relay is configured is kept; the app registers again on its next start.
 */
export async function doRegisterE2eeDevice(deps: AppDeps, realm: RealmRow, user: UserRow, r: E2eeRegistration): Promise<{ device_id: number }> {
  checkHumanCaller(user);
  if (!parseDevicePublicKey(r.pushPublicKey)) throw new ApiError("Invalid push_public_key");
  if (r.bouncerPublicKey === "") throw new ApiError("Invalid bouncer_public_key");
  if (r.encryptedPushRegistration === "") throw new ApiError("Invalid encrypted_push_registration");
  if (deps.config.pushBouncerUrl) {
    await postToBouncer(deps.config, "/api/v1/remotes/push/e2ee/register", {
      form: {
        realm_url: realmUrl(deps.config.externalHost, realm.string_id),
        push_account_id: String(r.pushAccountId),
        token_kind: r.tokenKind,
        encrypted_push_registration: r.encryptedPushRegistration,
        bouncer_public_key: r.bouncerPublicKey,
      },
    });
  }
  const deviceId = await transaction(deps.store, (tx) =>
    upsertPushDevice(tx, {
      userId: user.id,
      kind: "e2ee",
      token: String(r.pushAccountId),
      appId: r.tokenKind,
      publicKey: r.pushPublicKey,
      now: deps.clock.now(),
    }),
  );
  return { device_id: deviceId };
}

/**
 * `POST /mobile_push/e2ee/test_notification` (spec 4.21): to one device, or to all of the user's
 * E2EE devices. The checks run in Zulip's order: a device that can receive (NO_ACTIVE_PUSH_DEVICE),
 * then a configured relay (ADMIN_ACTION_REQUIRED), then the relay's own answer.
 */
export async function checkSendE2eeTestNotification(deps: AppDeps, realm: RealmRow, user: UserRow, deviceId: number | undefined): Promise<void> {
  checkHumanCaller(user);
  const devices = await listPushDevices(readTx(deps.store), user.id, "e2ee", deviceId);
  const keyed = devices.flatMap((d) => {
    const key = d.public_key === null ? null : parseDevicePublicKey(d.public_key);
    return key ? [{ device: d, key }] : [];
  });
  if (keyed.length === 0) throw new ApiError("No active registered push device", "NO_ACTIVE_PUSH_DEVICE");
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  const payload = { type: "test", realm_name: realm.name, realm_url: url, user_id: user.id, time: deps.clock.now() };
  await postToBouncer(deps.config, "/api/v1/remotes/push/e2ee/notify", {
    json: {
      realm_url: url,
      push_requests: keyed.map(({ device, key }) => ({
        push_account_id: Number(device.token),
        token_kind: device.app_id,
        encrypted_data: encryptForDevice(key, payload),
      })),
    },
  });
}
