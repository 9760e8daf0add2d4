/**
 * Mobile push: token registration (OpenAPI add/remove-apns-token, add/remove-fcm-token), E2EE
 * device registration (Zulip 11's register-push-device) and the E2EE test notification (spec 4.21).
 */
import { checkSendE2eeTestNotification, doAddPushToken, doRegisterE2eeDevice, doRemovePushToken } from "../actions/push.js";
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

export const registerPushDevice = endpoint({
  method: "POST",
  path: "/mobile_push/register",
  auth: "user",
  params: {
    push_account_id: p.int().check((v, name) => {
      if (v < 0) throw invalidParam(`${name} is too small`);
      return v;
    }),
    token_kind: p.oneOf(["fcm", "apns"]),
    push_public_key: p.str(),
    bouncer_public_key: p.str(),
    encrypted_push_registration: p.str(),
  },
  async handler(ctx, params) {
    return doRegisterE2eeDevice(ctx.deps, ctx.realm, ctx.user, {
      pushAccountId: params.push_account_id,
      tokenKind: params.token_kind,
      pushPublicKey: params.push_public_key,
      bouncerPublicKey: params.bouncer_public_key,
      encryptedPushRegistration: params.encrypted_push_registration,
    });
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

export const pushEndpoints = [addApnsToken, removeApnsToken, addFcmToken, removeFcmToken, registerPushDevice, sendE2eeTestNotification];
