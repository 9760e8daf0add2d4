/**
 * Video call endpoints (Zulip's create-big-blue-button-video-call, create-nextcloud-talk-video-call
 * (FL 465), create-constructor-groups-video-call (FL 460), create-webex-video-call (FL 493)). Open
 * to every account, as in Zulip; each answers `{url}` or the provider's error.
 */
import { createBigBlueButtonCall } from "../actions/calls/video-calls.js";
import { createConstructorGroupsCall, createNextcloudTalkCall } from "../actions/calls/video-call-providers.js";
import { createWebexCall } from "../actions/calls/webex-calls.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

/** Parley's bound on a meeting name (docs/LIMITS.md). */
const MAX_MEETING_NAME_LENGTH = 200;
/** Parley's bound on a Nextcloud Talk room name as sent; Zulip cuts what it forwards to 255 characters. */
const MAX_ROOM_NAME_LENGTH = 10_000;

export const createBigBlueButtonCallEndpoint = endpoint({
  method: "GET",
  path: "/calls/bigbluebutton/create",
  auth: "user",
  params: { meeting_name: p.str({ maxLength: MAX_MEETING_NAME_LENGTH }), voice_only: p.bool().default(false) },
  async handler(ctx, { meeting_name, voice_only }) {
    return { url: createBigBlueButtonCall(ctx.deps.config, ctx.user, meeting_name, voice_only) };
  },
});

export const createNextcloudTalkCallEndpoint = endpoint({
  method: "POST",
  path: "/calls/nextcloud_talk/create",
  auth: "user",
  params: { room_name: p.str({ maxLength: MAX_ROOM_NAME_LENGTH }) },
  async handler(ctx, { room_name }) {
    return { url: await createNextcloudTalkCall(ctx.deps.config, room_name) };
  },
});

export const createConstructorGroupsCallEndpoint = endpoint({
  method: "POST",
  path: "/calls/constructorgroups/create",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { url: await createConstructorGroupsCall(ctx.deps.config, ctx.user) };
  },
});

export const createWebexCallEndpoint = endpoint({
  method: "POST",
  path: "/calls/webex/create",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { url: await createWebexCall(ctx.deps, ctx.user) };
  },
});

export const videoCallEndpoints = [createBigBlueButtonCallEndpoint, createNextcloudTalkCallEndpoint, createConstructorGroupsCallEndpoint, createWebexCallEndpoint];
