/**
 * `POST /mobile_push/register` as redesigned in Zulip 12 (FL 468): a client device (see
 * client-devices.ts) gets its push key (what notifications are encrypted to) and its platform
 * token (encrypted for the relay, known here only by its token id). A first registration sends
 * both groups of fields; afterwards either group alone rotates the key or the token. The device's
 * state reaches the user's clients as `device` update events, in Zulip's shapes:
 * - a new token: {push_key_id (when a key came too), pending_push_token_id,
 *   push_token_last_updated_timestamp, push_registration_error_code: null}; then, once the relay
 *   took it, {push_token_id, pending_push_token_id: null}, or, when the relay refused it,
 *   {push_registration_error_code} (the app shows it and registers again);
 * - a new key alone: {push_key_id}.
 * Sending what the device already has changes nothing and sends no event. Once a token is
 * registered, legacy registrations of the same token are removed (FL 483).
 *
 * Zulip hands the relay request to a queue worker that retries; Parley calls the relay within the
 * request, before writing anything, so a relay that is down or failing fails the request (502,
 * FAILED_TO_CONNECT_BOUNCER / INTERNAL_SERVER_ERROR_ON_BOUNCER) and leaves the device as it was,
 * for the app to try again, rather than leaving a registration pending that nothing would retry.
 * For the same reason Zulip's refusal "A registration for the device already in progress." never
 * applies: a registration is never left in progress between requests.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { realmUrl } from "../../lib/realm-url.js";
import { parsePushKey } from "../../lib/push-encryption.js";
import { canonicalTokenId, tokenIdOf } from "../../lib/push-token-ids.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { getClientDevice, updateClientDevice, type ClientDeviceRow, type ClientDeviceUpdate } from "../../store/client-devices.js";
import { deletePushDevicesByIds, listPushDevices } from "../../store/push.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { checkHumanCaller } from "../caller-checks.js";
import { accessClientDevice, invalidDeviceId } from "./client-devices.js";
import { postToBouncer, RelayRejection } from "./push-bouncer.js";

export interface PushKeyFields {
  pushKeyId: number;
  /** Base64 as sent: a tag byte (0x31) and a 32-byte secretbox key. */
  pushKey: string;
}

export interface PushTokenFields {
  tokenKind: "fcm" | "apns";
  /** Base64 of the token's id as sent (lib/push-token-ids.ts). */
  tokenId: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export interface PushRegistration {
  deviceId: number;
  key: PushKeyFields | null;
  token: PushTokenFields | null;
}

const notConfigured = () => new ApiError("Server is not configured to use push notification service.", "PUSH_SERVICE_NOT_CONFIGURED");

/** The relay's refusals that are the registration's fault, recorded on the device (Zulip's Device.PushRegistrationErrorCode). */
const REGISTRATION_ERROR_CODES = new Set(["INVALID_BOUNCER_PUBLIC_KEY", "REQUEST_EXPIRED"]);

interface Plan {
  keyChanges: boolean;
  tokenChanges: boolean;
}

function plan(device: ClientDeviceRow, r: PushRegistration): Plan {
  if (r.token && !r.key && device.push_token_kind === null) throw new ApiError("No push registration exists to rotate token for.");
  if (r.key && !r.token && device.push_key === null) throw new ApiError("No push registration exists to rotate key for.");
  const keyChanges = r.key !== null && !(device.push_key_id === r.key.pushKeyId && device.push_key === r.key.pushKey);
  const alreadyRegistered = device.push_token_id === r.token?.tokenId && device.pending_push_token_id === null && device.push_registration_error_code === null;
  return { keyChanges, tokenChanges: r.token !== null && !alreadyRegistered };
}

/** Writes the outcome and publishes the events, in Zulip's order (see the header). */
async function record(deps: AppDeps, tx: Tx, user: UserRow, r: PushRegistration, p: Plan, relayError: string | null): Promise<void> {
  const device = await getClientDevice(tx, user.id, r.deviceId);
  if (!device) throw invalidDeviceId();
  const publish = (fields: Record<string, unknown>) => publishOnCommit(tx, deps.events, { type: "device", op: "update", device_id: device.id, ...fields }, [user.id]);
  const changes: ClientDeviceUpdate = {};
  if (p.keyChanges && r.key) Object.assign(changes, { push_key: r.key.pushKey, push_key_id: r.key.pushKeyId });
  if (!p.tokenChanges || !r.token) {
    if (p.keyChanges) {
      await updateClientDevice(tx, device.id, changes);
      publish({ push_key_id: r.key!.pushKeyId });
    }
    return;
  }
  const now = deps.clock.now();
  Object.assign(changes, { push_token_kind: r.token.tokenKind, push_token_last_updated_timestamp: now });
  publish({
    ...(r.key ? { push_key_id: r.key.pushKeyId } : {}),
    pending_push_token_id: r.token.tokenId,
    push_token_last_updated_timestamp: now,
    push_registration_error_code: null,
  });
  if (relayError !== null) {
    await updateClientDevice(tx, device.id, { ...changes, pending_push_token_id: r.token.tokenId, push_registration_error_code: relayError });
    publish({ push_registration_error_code: relayError });
    return;
  }
  await updateClientDevice(tx, device.id, { ...changes, push_token_id: r.token.tokenId, pending_push_token_id: null, push_registration_error_code: null });
  publish({ push_token_id: r.token.tokenId, pending_push_token_id: null });
  const legacy = (await listPushDevices(tx, user.id)).filter((d) => tokenIdOf(d.token) === r.token!.tokenId);
  await deletePushDevicesByIds(tx, legacy.map((d) => d.id));
}

/** The request's fields in the form kept: the key checked, the token id canonical. */
function checkFields(input: PushRegistration): PushRegistration {
  if (!input.key && !input.token) throw new ApiError("Missing parameters: must provide either all push key fields, all token fields, or both.");
  if (input.key && !parsePushKey(input.key.pushKey)) throw new ApiError("Invalid `push_key`");
  const tokenId = input.token ? canonicalTokenId(input.token.tokenId) : null;
  if (input.token && tokenId === null) throw new ApiError("`token_id` is not Base64 encoded");
  return { ...input, token: input.token && { ...input.token, tokenId: tokenId! } };
}

export async function doRegisterPushDevice(deps: AppDeps, realm: RealmRow, user: UserRow, input: PushRegistration): Promise<void> {
  checkHumanCaller(user);
  if (!deps.config.pushBouncerUrl) throw notConfigured();
  const device = await accessClientDevice(readTx(deps.store), user, input.deviceId);
  const r = checkFields(input);
  const p = plan(device, r);
  let relayError: string | null = null;
  if (p.tokenChanges && r.token) {
    try {
      await postToBouncer(deps.config, "/api/v1/remotes/push/e2ee/register", {
        form: {
          realm_url: realmUrl(deps.config.externalHost, realm.string_id),
          token_id: r.token.tokenId,
          token_kind: r.token.tokenKind,
          encrypted_push_registration: r.token.encryptedPushRegistration,
          bouncer_public_key: r.token.bouncerPublicKey,
        },
      });
    } catch (e) {
      if (!(e instanceof RelayRejection)) throw e;
      relayError = REGISTRATION_ERROR_CODES.has(e.relayCode) ? e.relayCode : "BAD_REQUEST";
    }
  }
  await transaction(deps.store, (tx) => record(deps, tx, user, r, p, relayError));
}
