/**
 * Mobile push: token registration (OpenAPI add/remove-apns-token, add/remove-fcm-token), E2EE
 * registration of a client device (register-push-device as of FL 468) and the E2EE test
 * notification (spec 4.21).
 */
import { checkSendE2eeTestNotification, checkSendLegacyTestNotification, doAddPushToken, doRemovePushToken } from "../actions/push/push.js";
import { doRegisterPushDevice } from "../actions/push/push-registration.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const addApnsToken = endpoint({
  method: "POST",
  path: "/users/me/apns_device_token",
  auth: "user",
  params: { token: p.str(), appid: p.str() },
  async handler(ctx, params) {
    await doAddPushToken(ctx.deps, ctx.user, "apns", params.token, params.appid);
    return {};
  },
});

/** FCM registration ids, unlike APNs tokens, name no app. */
export const addFcmToken = endpoint({
  method: "POST",
  path: "/users/me/android_gcm_reg_id",
  auth: "user",
  params: { token: p.str() },
  async handler(ctx, params) {
    await doAddPushToken(ctx.deps, ctx.user, "fcm", params.token, null);
    return {};
  },
});

/** Removing a legacy token is the same for both kinds but for the path. */
const removeTokenEndpoint = (kind: "apns" | "fcm", path: string) =>
  endpoint({
    method: "DELETE",
    path,
    auth: "user",
    params: { token: p.str() },
    async handler(ctx, params) {
      await doRemovePushToken(ctx.deps, ctx.user, kind, params.token);
      return {};
    },
  });

export const removeApnsToken = removeTokenEndpoint("apns", "/users/me/apns_device_token");
export const removeFcmToken = removeTokenEndpoint("fcm", "/users/me/android_gcm_reg_id");

/**
 * FL 468: `device_id` from POST /register_client_device, and the push key fields, the token
 * fields, or both (a group counts only when complete, as Zulip reads them).
 */
export const registerPushDevice = endpoint({
  method: "POST",
  path: "/mobile_push/register",
  auth: "user",
  params: {
    device_id: p.int(),
    push_key_id: p
      .int()
      .check((v, name) => {
        if (v < 0 || v > 0xffffffff) throw invalidParam(`Invalid ${name}: Value error, Not a valid unsigned 32-bit integer`);
        return v;
      })
      .optional(),
    push_key: p.str().optional(),
    token_kind: p.oneOf(["fcm", "apns"]).optional(),
    token_id: p.str().optional(),
    bouncer_public_key: p.str().optional(),
    encrypted_push_registration: p.str().optional(),
  },
  async handler(ctx, params) {
    const { push_key_id, push_key, token_kind, token_id, bouncer_public_key, encrypted_push_registration } = params;
    const key = push_key_id !== undefined && push_key !== undefined ? { pushKeyId: push_key_id, pushKey: push_key } : null;
    const token =
      token_kind !== undefined && token_id !== undefined && bouncer_public_key !== undefined && encrypted_push_registration !== undefined
        ? { tokenKind: token_kind, tokenId: token_id, bouncerPublicKey: bouncer_public_key, encryptedPushRegistration: encrypted_push_registration }
        : null;
    await doRegisterPushDevice(ctx.deps, ctx.realm, ctx.user, { deviceId: params.device_id, key, token });
  },
});

export const sendE2eeTestNotification = endpoint({
  method: "POST",
  path: "/mobile_push/e2ee/test_notification",
  auth: "user",
  params: { device_id: p.int().optional() },
  async handler(ctx, params) {
    await checkSendE2eeTestNotification(ctx.deps, ctx.realm, ctx.user, params.device_id);
    return {};
  },
});

/** test-notify (FL 217): the legacy registrations' test notification. */
export const sendTestNotification = endpoint({
  method: "POST",
  path: "/mobile_push/test_notification",
  auth: "user",
  params: { token: p.str().optional() },
  async handler(ctx, params) {
    await checkSendLegacyTestNotification(ctx.deps, ctx.realm, ctx.user, params.token);
    return {};
  },
});

export const pushEndpoints = [addApnsToken, removeApnsToken, addFcmToken, removeFcmToken, registerPushDevice, sendE2eeTestNotification, sendTestNotification];
