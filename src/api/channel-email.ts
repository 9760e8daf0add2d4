/** A channel's email gateway address (Zulip's get-stream-email-address; FL 226, `sender_id` FL 335). */
import { getChannelEmailAddress } from "../actions/channels/channel-email.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const getStreamEmailAddress = endpoint({
  method: "GET",
  path: "/streams/:stream_id/email_address",
  auth: "user",
  params: { stream_id: p.int().path(), sender_id: p.int().optional() },
  async handler(ctx, params) {
    return { email: await getChannelEmailAddress(ctx.deps, ctx.user, params.stream_id, params.sender_id) };
  },
});

export const channelEmailEndpoints = [getStreamEmailAddress];
