/** Linkifier endpoints (spec 4.17; Zulip's *-linkifier operations and the legacy filters list). */
import { addLinkifier, changeLinkifier, listLinkifiersForApi, removeLinkifier, reorderLinkifiers } from "../actions/realm/linkifiers.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";
import { readTx } from "../store/db.js";

const linkifierParams = {
  pattern: p.str(),
  url_template: p.str(),
  example_input: p.str().optional(),
  reverse_template: p.str().optional(),
  alternative_url_templates: p.json(v.listOf(v.str)).optional(),
};

function fromParams(params: { pattern: string; url_template: string; example_input?: string; reverse_template?: string; alternative_url_templates?: string[] }) {
  return {
    pattern: params.pattern,
    urlTemplate: params.url_template,
    exampleInput: params.example_input,
    reverseTemplate: params.reverse_template,
    alternativeUrlTemplates: params.alternative_url_templates,
  };
}

export const getLinkifiers = endpoint({
  method: "GET",
  path: "/realm/linkifiers",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { linkifiers: await listLinkifiersForApi(readTx(ctx.deps.store), ctx.realm.id) };
  },
});

/** The legacy list: [pattern, url_template, id] triples. */
export const getFilters = endpoint({
  method: "GET",
  path: "/realm/filters",
  auth: "user",
  params: {},
  async handler(ctx) {
    const linkifiers = await listLinkifiersForApi(readTx(ctx.deps.store), ctx.realm.id);
    return { filters: linkifiers.map((l) => [l.pattern, l.url_template, l.id]) };
  },
});

export const createLinkifier = endpoint({
  method: "POST",
  path: "/realm/filters",
  auth: "admin",
  params: linkifierParams,
  async handler(ctx, params) {
    return { id: await addLinkifier(ctx.deps, ctx.realm, fromParams(params)) };
  },
});

export const updateLinkifier = endpoint({
  method: "PATCH",
  path: "/realm/filters/:filter_id",
  auth: "admin",
  params: { filter_id: p.int().path(), ...linkifierParams },
  async handler(ctx, params) {
    await changeLinkifier(ctx.deps, ctx.realm, params.filter_id, fromParams(params));
  },
});

export const deleteLinkifier = endpoint({
  method: "DELETE",
  path: "/realm/filters/:filter_id",
  auth: "admin",
  params: { filter_id: p.int().path() },
  async handler(ctx, { filter_id }) {
    await removeLinkifier(ctx.deps, ctx.realm, filter_id);
  },
});

export const reorderLinkifiersEndpoint = endpoint({
  method: "PATCH",
  path: "/realm/linkifiers",
  auth: "admin",
  params: { ordered_linkifier_ids: p.intList() },
  async handler(ctx, { ordered_linkifier_ids }) {
    await reorderLinkifiers(ctx.deps, ctx.realm, ordered_linkifier_ids);
  },
});

export const linkifierEndpoints = [getLinkifiers, getFilters, createLinkifier, updateLinkifier, deleteLinkifier, reorderLinkifiersEndpoint];
