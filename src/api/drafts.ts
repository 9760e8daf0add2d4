/** Drafts (Zulip's get-drafts, create-drafts, edit-draft, delete-draft). */
import { createDrafts, editDraft, getOwnDrafts, removeDraft, type DraftInput } from "../actions/users/drafts.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import * as v from "../lib/validate.js";

const timestamp: v.Validator<number> = (value, name) => {
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalidParam(`${name} is not a number`);
  return value;
};

const draft: v.Validator<DraftInput> = v.object({
  type: v.field(v.literal(["stream", "private", ""])),
  to: v.field(v.listOf(v.int)),
  topic: v.field(v.str),
  content: v.field(v.str),
  timestamp: v.optionalField(timestamp),
});

export const getDrafts = endpoint({
  method: "GET",
  path: "/drafts",
  auth: "user",
  params: {},
  async handler(ctx) {
    const drafts = await getOwnDrafts(ctx.deps, ctx.user);
    return { count: drafts.length, drafts };
  },
});

export const postDrafts = endpoint({
  method: "POST",
  path: "/drafts",
  auth: "user",
  params: { drafts: p.json(v.listOf(draft)) },
  async handler(ctx, params) {
    return { ids: await createDrafts(ctx.deps, ctx.user, params.drafts) };
  },
});

export const patchDraft = endpoint({
  method: "PATCH",
  path: "/drafts/:draft_id",
  auth: "user",
  params: { draft_id: p.int().path(), draft: p.json(draft) },
  async handler(ctx, params) {
    await editDraft(ctx.deps, ctx.user, params.draft_id, params.draft);
  },
});

export const deleteDraft = endpoint({
  method: "DELETE",
  path: "/drafts/:draft_id",
  auth: "user",
  params: { draft_id: p.int().path() },
  async handler(ctx, { draft_id }) {
    await removeDraft(ctx.deps, ctx.user, draft_id);
  },
});

export const draftEndpoints = [getDrafts, postDrafts, patchDraft, deleteDraft];
