/**
 * A message's edit history (GET /messages/{id}/history): each version with who made it and
 * when, content changes shown as the server's HTML diff, and topic or channel moves spelled out.
 */
import { useEffect, useState } from "preact/hooks";
import { formatFull } from "../format";
import { channelName } from "../narrow";
import { useClientState, useSession } from "../session";
import { userName } from "../state/client-state";
import { Dialog } from "./dialog";
import { RenderedContent } from "./rendered-content";

interface Snapshot {
  timestamp: number;
  user_id: number | null;
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  rendered_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
}

function describe(snapshot: Snapshot, index: number, name: (id: number) => string, channel: (id: number) => string): string {
  if (index === 0) return "Posted";
  const changes: string[] = [];
  if (snapshot.prev_rendered_content !== undefined) changes.push("Edited");
  if (snapshot.prev_topic !== undefined) changes.push(`Moved from topic “${snapshot.prev_topic}” to “${snapshot.topic}”`);
  if (snapshot.prev_stream !== undefined && snapshot.stream !== undefined) changes.push(`Moved from #${channel(snapshot.prev_stream)} to #${channel(snapshot.stream)}`);
  const by = snapshot.user_id === null ? "" : ` by ${name(snapshot.user_id)}`;
  return `${changes.join("; ") || "Changed"}${by}`;
}

export function EditHistoryDialog({ messageId, onClose }: { messageId: number; onClose: () => void }) {
  const session = useSession();
  const state = useClientState((s) => s);
  const [history, setHistory] = useState<Snapshot[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    session.api
      .get<{ message_history: Snapshot[] }>(`/messages/${messageId}/history`)
      .then((r) => setHistory(r.message_history))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [session, messageId]);

  return (
    <Dialog title="Message edit history" onClose={onClose} wide>
      {error && <p role="alert" class="form-error">{error}</p>}
      {!history && !error && <p aria-busy="true">Loading…</p>}
      {history && (
        <ol class="edit-history">
          {history.map((snapshot, i) => (
            <li key={i} class="edit-version">
              <div class="edit-meta">
                <span class="edit-what">
                  {describe(
                    snapshot,
                    i,
                    (id) => userName(state, id),
                    (id) => channelName(state, id),
                  )}
                </span>
                <time dateTime={new Date(snapshot.timestamp * 1000).toISOString()}>{formatFull(snapshot.timestamp)}</time>
              </div>
              {(i === 0 || snapshot.prev_rendered_content !== undefined) && (
                <RenderedContent class="rendered diff" html={snapshot.content_html_diff ?? snapshot.rendered_content ?? ""} />
              )}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
