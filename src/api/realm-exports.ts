/** Data exports (Zulip's export-realm, get-realm-exports, get-realm-export-consents; administrators only). */
import { checkCreateExport, listExportConsents, listExports } from "../actions/realm-export/realm-exports.js";
import { EXPORT_KINDS } from "../actions/realm-export/archive-format.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const createRealmExport = endpoint({
  method: "POST",
  path: "/export/realm",
  auth: "admin",
  // FL 449: a string, `public` by default.
  params: { export_type: p.oneOf(EXPORT_KINDS).optional() },
  async handler(ctx, { export_type }) {
    return { id: await checkCreateExport(ctx.deps, ctx.realm, ctx.user, export_type ?? "public") };
  },
});

export const getRealmExports = endpoint({
  method: "GET",
  path: "/export/realm",
  auth: "admin",
  params: {},
  async handler(ctx) {
    return { exports: await listExports(ctx.deps, ctx.realm, ctx.user) };
  },
});

export const getRealmExportConsents = endpoint({
  method: "GET",
  path: "/export/realm/consents",
  auth: "admin",
  params: {},
  async handler(ctx) {
    return { export_consents: await listExportConsents(ctx.deps, ctx.realm, ctx.user) };
  },
});

export const realmExportEndpoints = [createRealmExport, getRealmExports, getRealmExportConsents];
