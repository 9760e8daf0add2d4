/**
 * POST /submessage: add data to a widget message (vote in a poll, tick a to-do item). Not in
 * Zulip's OpenAPI document, but every Zulip client with widgets calls it (the mobile app's
 * lib/api/route/submessage.dart; feature level 354 for its access rules).
 */
import { checkAddSubmessage } from "../actions/messages/submessages.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const addSubmessage = endpoint({
  method: "POST",
  path: "/submessage",
  auth: "user",
  params: {
    message_id: p.int(),
    msg_type: p.str(),
    content: p.str(),
  },
  async handler(ctx, params) {
    await checkAddSubmessage(ctx.deps, ctx.user, { messageId: params.message_id, msgType: params.msg_type, content: params.content });
  },
});

export const submessageEndpoints = [addSubmessage];
