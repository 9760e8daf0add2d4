/**
 * `GET /user_avatars/exports/{realm_id}/{random}/{file}`: a finished data export's archive, where
 * Zulip's local storage serves them (the `export_url` of GET /export/realm). Unlike Zulip, which
 * relies on the random path alone, Parley also asks for an administrator of that realm (HTTP
 * Basic or the session cookie of a browser following the link).
 */
import type { FastifyInstance } from "fastify";
import { getDownloadableExport } from "../actions/realm-export/realm-exports.js";
import type { AppDeps } from "../deps.js";
import { sendStoredFile } from "../uploads/serve.js";
import { uploadStorage } from "../uploads/storage.js";
import { authenticateBasicOrSession } from "./session-auth.js";

export function registerExportRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { realm_id: string; "*": string } }>("/user_avatars/exports/:realm_id/*", async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    const file = await getDownloadableExport(deps, user, request.params.realm_id, request.params["*"]);
    return sendStoredFile(request, reply, uploadStorage(deps.config), file);
  });
}
