/**
 * Saved snippets (Zulip's get/create/edit/delete-saved-snippet; FL 297, editing FL 368): a user's
 * reusable message texts. Only the owner sees or changes them; their own clients hear of every
 * change (saved_snippets add / update / remove) and POST /register lists them.
 *
 * Titles and contents are stripped of surrounding whitespace and must not be blank; a title holds
 * at most 60 characters (Zulip's SavedSnippet.MAX_TITLE_LENGTH) and a content at most a message's
 * 10,000. Errors are worded as Zulip's typed_endpoint words them.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { strippedText } from "../../lib/validate.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { insertAuditLog } from "../../store/realms.js";
import {
  deleteSavedSnippet,
  getSavedSnippet,
  insertSavedSnippet,
  listSavedSnippets,
  updateSavedSnippet,
  type SavedSnippetRow,
} from "../../store/saved-snippets.js";
import type { UserRow } from "../../store/types.js";
import { MAX_MESSAGE_LENGTH } from "../messages/send-message.js";

export const MAX_SNIPPET_TITLE_LENGTH = 60;

/** The saved snippet object of Zulip's API. */
export function presentSavedSnippet(row: SavedSnippetRow): Record<string, unknown> {
  return { id: row.id, title: row.title, content: row.content, date_created: row.date_created };
}

const snippetNotFound = () => new ApiError("Saved snippet does not exist.", "BAD_REQUEST", 404);


export const checkSnippetTitle = (title: string) => strippedText("title", title, MAX_SNIPPET_TITLE_LENGTH);
export const checkSnippetContent = (content: string) => strippedText("content", content, MAX_MESSAGE_LENGTH);

/** The `saved_snippets` section of POST /register. */
export async function savedSnippetsState(tx: Tx, user: UserRow): Promise<{ saved_snippets: Record<string, unknown>[] }> {
  return { saved_snippets: (await listSavedSnippets(tx, user.id)).map(presentSavedSnippet) };
}

/** GET /saved_snippets. */
export async function getOwnSavedSnippets(deps: AppDeps, user: UserRow): Promise<Record<string, unknown>[]> {
  return (await savedSnippetsState(readTx(deps.store), user)).saved_snippets;
}

/** POST /saved_snippets: title and content already checked; answers the new id. */
export async function doCreateSavedSnippet(deps: AppDeps, user: UserRow, title: string, content: string): Promise<number> {
  return transaction(deps.store, async (tx) => {
    const now = deps.clock.now();
    const row = await insertSavedSnippet(tx, { user_id: user.id, title, content, date_created: now });
    await insertAuditLog(tx, {
      realm_id: user.realm_id,
      event_type: "saved_snippet_created",
      event_time: now,
      acting_user_id: user.id,
      modified_user_id: user.id,
      extra_data: { saved_snippet_id: row.id },
    });
    publishOnCommit(tx, deps.events, { type: "saved_snippets", op: "add", saved_snippet: presentSavedSnippet(row) }, [user.id]);
    return row.id;
  });
}

/**
 * PATCH /saved_snippets/{id}: the fields given, already checked. With neither, Zulip answers
 * success at once, before looking the snippet up, so that no spurious event goes out.
 */
export async function doEditSavedSnippet(deps: AppDeps, user: UserRow, id: number, changes: { title?: string; content?: string }): Promise<void> {
  if (changes.title === undefined && changes.content === undefined) return;
  await transaction(deps.store, async (tx) => {
    if (!(await getSavedSnippet(tx, user.id, id))) throw snippetNotFound();
    const row = await updateSavedSnippet(tx, id, changes);
    publishOnCommit(tx, deps.events, { type: "saved_snippets", op: "update", saved_snippet: presentSavedSnippet(row) }, [user.id]);
  });
}

/** DELETE /saved_snippets/{id}. */
export async function doDeleteSavedSnippet(deps: AppDeps, user: UserRow, id: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if (!(await getSavedSnippet(tx, user.id, id))) throw snippetNotFound();
    await deleteSavedSnippet(tx, id);
    publishOnCommit(tx, deps.events, { type: "saved_snippets", op: "remove", saved_snippet_id: id }, [user.id]);
  });
}
