/** A message's read receipts (Zulip's get-read-receipts, FL 137). */
import { getReadReceipts } from "../actions/messages/read-receipts.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const getMessageReadReceipts = endpoint({
  method: "GET",
  path: "/messages/:message_id/read_receipts",
  auth: "user",
  params: { message_id: p.int().path() },
  async handler(ctx, params) {
    return { user_ids: await getReadReceipts(ctx.deps, ctx.realm, ctx.user, params.message_id) };
  },
});

export const readReceiptEndpoints = [getMessageReadReceipts];
