/**
 * The drafts view (issue 20; `#/drafts`, Zulip's drafts overlay): the user's unsent messages kept
 * on the server, newest first, each with where it was going; Restore opens its conversation with
 * the text back in the compose box, Delete removes it (DELETE /drafts/{id}). Drafts kept in this
 * browser (synchronization off) are listed with them.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { channelName, dmTitle } from "../narrow";
import { narrowHref, navigate, settingsHref, type Narrow } from "../router";
import { useClientState, useSession } from "../session";
import type { ClientState } from "../state/client-state";
import type { Draft } from "../state/compose-lists";
import { formatWhen } from "./time";
import { deleteDraft, draftToRestore, useAllDrafts } from "./use-draft-sync";

/** "#channel › topic", the people of a direct message, or "No recipient". */
export function recipientLabel(state: ClientState, type: string, to: number | readonly number[], topic = ""): string {
  const ids = Array.isArray(to) ? to : [to as number];
  if (type === "stream" && ids.length > 0) return `#${channelName(state, ids[0])} › ${topic || "general chat"}`;
  if ((type === "private" || type === "direct") && ids.length > 0) return dmTitle(state, ids);
  return "No recipient";
}

function narrowOfDraft(draft: Draft): Narrow {
  if (draft.type === "stream" && draft.to.length > 0) return draft.topic ? { kind: "topic", streamId: draft.to[0], topic: draft.topic } : { kind: "channel", streamId: draft.to[0] };
  if (draft.type === "private" && draft.to.length > 0) return { kind: "dm", userIds: draft.to };
  return { kind: "all" };
}

export function DraftsView() {
  const session = useSession();
  const drafts = useAllDrafts();
  const state = useClientState((s) => s);
  const syncing = useClientState((s) => s.userSettings.enable_drafts_synchronization !== false);
  const [error, setError] = useState<string | null>(null);
  const sorted = [...drafts].sort((a, b) => b.timestamp - a.timestamp);

  function restore(draft: Draft) {
    draftToRestore.set(draft);
    const narrow = narrowOfDraft(draft);
    navigate(narrowHref(narrow, narrow.kind === "channel" || narrow.kind === "topic" ? channelName(state, narrow.streamId) : ""));
  }

  return (
    <section class="compose-list-view" aria-labelledby="drafts-title">
      <header class="narrow-bar">
        <h1 id="drafts-title">Drafts</h1>
      </header>
      <div class="compose-list-body">
        {!syncing && (
          <p class="notice">
            New drafts stay in this browser: <a href={settingsHref("preferences")}>turn on draft synchronization</a> to have them on all your devices.
          </p>
        )}
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        {sorted.length === 0 ? (
          <p class="empty-narrow">No drafts.</p>
        ) : (
          <ul class="compose-list" aria-label="Drafts">
            {sorted.map((draft) => (
              <li key={draft.id} class="compose-list-item">
                <div class="compose-list-meta">
                  <span class="compose-list-recipient">{recipientLabel(state, draft.type, draft.to, draft.topic)}</span>
                  <span>{formatWhen(draft.timestamp)}</span>
                </div>
                <p class="draft-content">{draft.content}</p>
                <div class="compose-list-actions">
                  <button type="button" class="button primary" onClick={() => restore(draft)}>
                    Restore
                  </button>
                  <button type="button" class="button" onClick={() => void deleteDraft(session, draft.id).catch((e: unknown) => setError(e instanceof ApiError ? e.msg : String(e)))}>
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
