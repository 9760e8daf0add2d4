/** The uploader's files: `GET /attachments`, `DELETE /attachments/{attachment_id}` (OpenAPI). */
import { doDeleteAttachment, listAttachments } from "../actions/uploads/attachments.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const getAttachments = endpoint({
  method: "GET",
  path: "/attachments",
  auth: "user",
  params: {},
  async handler(ctx) {
    return listAttachments(ctx.deps, ctx.user);
  },
});

export const removeAttachment = endpoint({
  method: "DELETE",
  path: "/attachments/:attachment_id",
  auth: "user",
  params: { attachment_id: p.int().path() },
  async handler(ctx, params) {
    await doDeleteAttachment(ctx.deps, ctx.user, params.attachment_id);
    return {};
  },
});

export const attachmentEndpoints = [getAttachments, removeAttachment];
