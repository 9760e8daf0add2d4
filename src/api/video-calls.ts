/** Video call endpoints (Zulip's create-big-blue-button-video-call). */
import { createBigBlueButtonCall } from "../actions/video-calls.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

/** Parley's bound on a meeting name (docs/LIMITS.md). */
const MAX_MEETING_NAME_LENGTH = 200;

export const createBigBlueButtonCallEndpoint = endpoint({
  method: "GET",
  path: "/calls/bigbluebutton/create",
  auth: "user",
  params: { meeting_name: p.str({ maxLength: MAX_MEETING_NAME_LENGTH }), voice_only: p.bool().default(false) },
  async handler(ctx, { meeting_name, voice_only }) {
    return { url: createBigBlueButtonCall(ctx.deps.config, ctx.user, meeting_name, voice_only) };
  },
});

export const videoCallEndpoints = [createBigBlueButtonCallEndpoint];
