/**
 * Logged-in devices (Zulip's register-client-device, FL 468, and remove-client-device, FL 470).
 * The mobile app calls the first on every start until it holds a device id, then registers its
 * E2EE push key and token against that id (POST /mobile_push/register).
 */
import { doRegisterClientDevice, doRemoveClientDevice } from "../actions/push/client-devices.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const registerClientDevice = endpoint({
  method: "POST",
  path: "/register_client_device",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { device_id: await doRegisterClientDevice(ctx.deps, ctx.user) };
  },
});

/** A POST, as Zulip routes it (not DELETE): the app sends it while logging out. */
export const removeClientDevice = endpoint({
  method: "POST",
  path: "/remove_client_device",
  auth: "user",
  params: { device_id: p.int() },
  async handler(ctx, params) {
    await doRemoveClientDevice(ctx.deps, ctx.user, params.device_id);
  },
});

export const clientDeviceEndpoints = [registerClientDevice, removeClientDevice];
