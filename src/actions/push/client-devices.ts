/**
 * Logged-in client devices (Zulip's register-client-device, FL 468, and remove-client-device,
 * FL 470): the mobile app registers its install once per account, then attaches its E2EE push
 * registration to that device id (actions/push/push-registration.ts). The user's own clients hear of
 * each change through `device` events (add / remove / update), and POST /register reports the
 * devices as `devices`, keyed by id. Zulip refuses nobody here (no human-only check: a device is
 * just a record), so neither does Parley.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { transaction, type Tx } from "../../store/db.js";
import { deleteClientDevice, deleteClientDevicesOfUser, getClientDevice, insertClientDevice, listClientDevices, type ClientDeviceRow } from "../../store/client-devices.js";
import type { UserRow } from "../../store/types.js";

export const invalidDeviceId = () => new ApiError("Invalid `device_id`");

/** A device as `devices` in POST /register describes it (Zulip's DeviceInfoDict). */
export function presentClientDevice(row: ClientDeviceRow): Record<string, unknown> {
  return {
    push_key_id: row.push_key_id,
    push_token_id: row.push_token_id,
    pending_push_token_id: row.pending_push_token_id,
    push_token_last_updated_timestamp: row.push_token_last_updated_timestamp,
    push_registration_error_code: row.push_registration_error_code,
  };
}

/** The `devices` section of POST /register: the user's devices by id (JSON object keys are strings). */
export async function devicesState(tx: Tx, user: UserRow): Promise<{ devices: Record<string, unknown> }> {
  const rows = await listClientDevices(tx, user.id);
  return { devices: Object.fromEntries(rows.map((row) => [String(row.id), presentClientDevice(row)])) };
}

/** The user's device with this id, or Zulip's error for any other id. */
export async function accessClientDevice(tx: Tx, user: UserRow, deviceId: number): Promise<ClientDeviceRow> {
  const device = await getClientDevice(tx, user.id, deviceId);
  if (!device) throw invalidDeviceId();
  return device;
}

/** POST /register_client_device: a new device record; answers its id. */
export async function doRegisterClientDevice(deps: AppDeps, user: UserRow): Promise<number> {
  return transaction(deps.store, async (tx) => {
    const id = await insertClientDevice(tx, user.id, deps.clock.now());
    publishOnCommit(tx, deps.events, { type: "device", op: "add", device_id: id }, [user.id]);
    return id;
  });
}

/** POST /remove_client_device (the app calls it on logout): the record and its push registration go. */
export async function doRemoveClientDevice(deps: AppDeps, user: UserRow, deviceId: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if (!(await deleteClientDevice(tx, user.id, deviceId))) throw invalidDeviceId();
    publishOnCommit(tx, deps.events, { type: "device", op: "remove", device_id: deviceId }, [user.id]);
  });
}


/**
 * Every device of the user goes, with its E2EE push registration, when the user's API key is
 * regenerated (FL 492): the devices were logged in with the old key. The user's clients hear of each.
 */
export async function doRemoveAllClientDevices(deps: AppDeps, tx: Tx, user: UserRow): Promise<void> {
  for (const id of await deleteClientDevicesOfUser(tx, user.id)) {
    publishOnCommit(tx, deps.events, { type: "device", op: "remove", device_id: id }, [user.id]);
  }
}
