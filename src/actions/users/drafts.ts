/**
 * Drafts kept on the server (Zulip's get/create/edit/delete-draft). A draft names a channel
 * (type "stream", `to` = [channel id], with a topic) or direct-message recipients (type "private",
 * `to` = the other users' ids, or just yourself); "private" with nobody, or type "", is a draft
 * with no recipient yet. With enable_drafts_synchronization off, none are stored (spec 4.2). The
 * user's own clients hear of every change (drafts add/update/remove).
 */
import { accessChannelById } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { normalizeTopic } from "../../lib/topics.js";
import { mergeSettings } from "../../lib/user-settings.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { deleteDraft, getDraft, insertDrafts, listDrafts, updateDraft, type DraftRow } from "../../store/drafts.js";
import type { UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { normalizeContent } from "../messages/send-message.js";

export interface DraftInput {
  type: "stream" | "private" | "";
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

/** The draft object of Zulip's API. */
export function presentDraft(row: DraftRow): Record<string, unknown> {
  return { id: row.id, type: row.type, to: JSON.parse(row.to) as number[], topic: row.topic, content: row.content, timestamp: row.timestamp };
}

const draftNotFound = () => new ApiError("Draft does not exist", "BAD_REQUEST", 404);

function checkSyncEnabled(user: UserRow): void {
  if (mergeSettings(user.settings).enable_drafts_synchronization === false) throw new ApiError("User has disabled synchronizing drafts.");
}

/** The stored form of a draft: recipients checked, content and topic normalized (Zulip's further_validated_draft_dict). */
async function checkDraft(deps: AppDeps, tx: Tx, user: UserRow, draft: DraftInput) {
  const content = normalizeContent(draft.content);
  const timestamp = draft.timestamp ?? deps.clock.now();
  if (timestamp < 0) throw new ApiError("Timestamp must not be negative.");
  const base = { user_id: user.id, content, timestamp: Math.floor(timestamp) };
  if (draft.type === "stream") {
    const topic = normalizeTopic(draft.topic);
    if (topic.includes("\u0000")) throw new ApiError("Topic must not contain null bytes");
    if (draft.to.length !== 1) throw new ApiError("Must specify exactly 1 channel ID for channel messages");
    await accessChannelById(tx, user, draft.to[0], { requireContent: true });
    return { ...base, type: "stream", to: JSON.stringify(draft.to), topic };
  }
  if (draft.type === "private" && draft.to.length > 0) {
    const ids = [...new Set(draft.to)];
    const found = new Set((await getUsersByIds(tx, user.realm_id, ids)).map((u) => u.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw new ApiError(`Invalid user ID ${missing}`);
    const others = ids.filter((id) => id !== user.id).sort((a, b) => a - b);
    return { ...base, type: "private", to: JSON.stringify(others.length > 0 ? others : [user.id]), topic: "" };
  }
  return { ...base, type: "", to: "[]", topic: "" };
}

/** GET /drafts: least recently edited first. */
export async function getOwnDrafts(deps: AppDeps, user: UserRow): Promise<Record<string, unknown>[]> {
  return (await listDrafts(readTx(deps.store), user.id)).map(presentDraft);
}

/** POST /drafts: all or none; returns the new ids in the order given. */
export async function createDrafts(deps: AppDeps, user: UserRow, drafts: readonly DraftInput[]): Promise<number[]> {
  checkSyncEnabled(user);
  return transaction(deps.store, async (tx) => {
    const rows = [];
    for (const draft of drafts) rows.push(await checkDraft(deps, tx, user, draft));
    const created = await insertDrafts(tx, rows);
    if (created.length > 0) publishOnCommit(tx, deps.events, { type: "drafts", op: "add", drafts: created.map(presentDraft) }, [user.id]);
    return created.map((d) => d.id);
  });
}

/** PATCH /drafts/{draft_id}: replaces the draft with the one given. */
export async function editDraft(deps: AppDeps, user: UserRow, draftId: number, draft: DraftInput): Promise<void> {
  checkSyncEnabled(user);
  await transaction(deps.store, async (tx) => {
    if (!(await getDraft(tx, user.id, draftId))) throw draftNotFound();
    const updated = await updateDraft(tx, draftId, await checkDraft(deps, tx, user, draft));
    publishOnCommit(tx, deps.events, { type: "drafts", op: "update", draft: presentDraft(updated) }, [user.id]);
  });
}

/** DELETE /drafts/{draft_id}. */
export async function removeDraft(deps: AppDeps, user: UserRow, draftId: number): Promise<void> {
  await transaction(deps.store, async (tx) => {
    if (!(await getDraft(tx, user.id, draftId))) throw draftNotFound();
    await deleteDraft(tx, draftId);
    publishOnCommit(tx, deps.events, { type: "drafts", op: "remove", draft_id: draftId }, [user.id]);
  });
}
