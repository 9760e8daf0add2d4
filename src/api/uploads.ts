/**
 * Uploads: `POST /user_uploads` (spec 4.22) and Zulip's get-file-temporary-url,
 * `GET /user_uploads/{realm_id_str}/{filename}` (OpenAPI), which under /api/v1 answers a short-lived
 * URL rather than the bytes; the bytes themselves are served at the site root (http/upload-routes.ts).
 * Zulip's check-thumbnail-status (FL 479) tells a client polling after an upload whether its
 * thumbnails are there.
 */
import { getThumbnailStatus } from "../actions/uploads/thumbnails.js";
import { checkUploadFile, getTemporaryFileUrl, maxUploadBytes } from "../actions/uploads/uploads.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const uploadFile = endpoint({
  method: "POST",
  path: "/user_uploads",
  auth: "user",
  params: {},
  streamsFiles: true,
  async handler(ctx) {
    const { request, deps } = ctx;
    // Past the limit the parser passes no more bytes and marks the part truncated; the action
    // refuses it. Extra files are counted and drained by the action, so no files limit here.
    const parts = request.isMultipart()
      ? request.files({ limits: { fileSize: maxUploadBytes(deps.config), files: Infinity }, throwFileSizeLimit: false })
      : null;
    return checkUploadFile(deps, ctx.realm, ctx.user, parts);
  },
});

export const getFileTemporaryUrl = endpoint({
  method: "GET",
  path: "/user_uploads/:realm_id_str/*",
  auth: "user",
  params: { realm_id_str: p.str().path(), "*": p.str().path() },
  async handler(ctx, params) {
    return { url: await getTemporaryFileUrl(ctx.deps, ctx.user, params.realm_id_str, params["*"]) };
  },
});

export const checkThumbnailStatus = endpoint({
  method: "GET",
  path: "/thumbnail/status/:realm_id_str/*",
  auth: "user",
  params: { realm_id_str: p.str().path(), "*": p.str().path() },
  async handler(ctx, params) {
    return { has_thumbnail: await getThumbnailStatus(ctx.deps, ctx.user, params.realm_id_str, params["*"]) };
  },
});

export const uploadEndpoints = [uploadFile, getFileTemporaryUrl, checkThumbnailStatus];
