/**
 * File serving at the site root, outside /api/v1, where Zulip serves uploads (issue 7, item 2):
 * - `GET /user_uploads/{realm_id}/{path…}` for a user authenticated with HTTP Basic (the mobile
 *   apps fetch images this way) or a session cookie (a browser's `<img>`, spec section 5.3);
 * - `GET /user_uploads/thumbnail/{realm_id}/{path…}/{format}`, a thumbnail of an uploaded image
 *   (thumbnail-formats.ts), with exactly the access rules of the original;
 * - `GET /user_uploads/temporary/{token}/{filename}` for the credential-free URLs handed out by
 *   `GET /api/v1/user_uploads/…` (temporary-url.ts).
 * Errors go through the app's error handler, so they keep Zulip's envelope. The resumable-upload
 * endpoint `/api/v1/tus` is registered here too (tus-routes.ts).
 */
import type { FastifyInstance } from "fastify";
import { getReadableThumbnail } from "../actions/uploads/thumbnails.js";
import { getAttachmentByTemporaryToken, getReadableAttachment } from "../actions/uploads/uploads.js";
import type { AppDeps } from "../deps.js";
import { sendStoredFile } from "../uploads/serve.js";
import { uploadStorage } from "../uploads/storage.js";
import { subdomainFromHost } from "./realm-host.js";
import { authenticateBasicOrSession } from "./session-auth.js";
import { registerTusRoutes } from "./tus-routes.js";

type FileParams = { realm_id: string; "*": string };

export function registerUploadRoutes(app: FastifyInstance, deps: AppDeps): void {
  registerTusRoutes(app, deps);
  const subdomainOf = (host: string | undefined) => subdomainFromHost(host, deps.config.externalHost);

  app.get<{ Params: { token: string; filename: string } }>("/user_uploads/temporary/:token/:filename", async (request, reply) => {
    const attachment = await getAttachmentByTemporaryToken(deps, subdomainOf(request.headers.host), request.params.token);
    return sendStoredFile(request, reply, uploadStorage(deps.config), attachment);
  });

  app.get<{ Params: FileParams }>("/user_uploads/thumbnail/:realm_id/*", async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    const thumbnail = await getReadableThumbnail(deps, user, request.params.realm_id, request.params["*"]);
    return sendStoredFile(request, reply, uploadStorage(deps.config), thumbnail);
  });

  app.get<{ Params: FileParams }>("/user_uploads/:realm_id/*", async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    const attachment = await getReadableAttachment(deps, user, request.params.realm_id, request.params["*"]);
    return sendStoredFile(request, reply, uploadStorage(deps.config), attachment);
  });
}
