/** Saved snippets (Zulip's get/create/edit/delete-saved-snippet; FL 297, editing FL 368). */
import {
  checkSnippetContent,
  checkSnippetTitle,
  doCreateSavedSnippet,
  doDeleteSavedSnippet,
  doEditSavedSnippet,
  getOwnSavedSnippets,
} from "../actions/users/saved-snippets.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const getSavedSnippets = endpoint({
  method: "GET",
  path: "/saved_snippets",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { saved_snippets: await getOwnSavedSnippets(ctx.deps, ctx.user) };
  },
});

export const createSavedSnippet = endpoint({
  method: "POST",
  path: "/saved_snippets",
  auth: "user",
  params: { title: p.str().check(checkSnippetTitle), content: p.str().check(checkSnippetContent) },
  async handler(ctx, params) {
    return { saved_snippet_id: await doCreateSavedSnippet(ctx.deps, ctx.user, params.title, params.content) };
  },
});

export const editSavedSnippet = endpoint({
  method: "PATCH",
  path: "/saved_snippets/:saved_snippet_id",
  auth: "user",
  params: {
    saved_snippet_id: p.int().path(),
    title: p.str().check(checkSnippetTitle).optional(),
    content: p.str().check(checkSnippetContent).optional(),
  },
  async handler(ctx, params) {
    await doEditSavedSnippet(ctx.deps, ctx.user, params.saved_snippet_id, { title: params.title, content: params.content });
  },
});

export const deleteSavedSnippet = endpoint({
  method: "DELETE",
  path: "/saved_snippets/:saved_snippet_id",
  auth: "user",
  params: { saved_snippet_id: p.int().path() },
  async handler(ctx, params) {
    await doDeleteSavedSnippet(ctx.deps, ctx.user, params.saved_snippet_id);
  },
});

export const savedSnippetEndpoints = [getSavedSnippets, createSavedSnippet, editSavedSnippet, deleteSavedSnippet];
