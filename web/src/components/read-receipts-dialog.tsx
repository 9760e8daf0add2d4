/**
 * Who has read a message (GET /messages/{message_id}/read_receipts, Zulip's get-read-receipts).
 * The server already leaves out the sender, people who turned send_read_receipts off and muted
 * people; the menu entry that opens this is offered only while the organization has read
 * receipts on (realm_enable_read_receipts), as Zulip's message menu does.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { useClientState, useSession } from "../session";
import { Avatar } from "./avatar";
import { Dialog } from "./dialog";

/** Whether the organization shows read receipts (realm_enable_read_receipts, FL 137). */
export const readReceiptsOn = (realm: Record<string, unknown>) => realm.realm_enable_read_receipts === true;

export function ReadReceiptsDialog({ messageId, onClose }: { messageId: number; onClose: () => void }) {
  const session = useSession();
  const users = useClientState((s) => s.users);
  const [readers, setReaders] = useState<number[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    session.api
      .get<{ user_ids: number[] }>(`/messages/${messageId}/read_receipts`)
      .then((r) => setReaders(r.user_ids))
      .catch((e: unknown) => setError(e instanceof ApiError ? e.msg : String(e)));
  }, [session, messageId]);
  const people = (readers ?? []).map((id) => users.get(id)).filter((u) => u !== undefined).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <Dialog title="Read receipts" onClose={onClose}>
      {error && <p role="alert" class="form-error">{error}</p>}
      {!readers && !error && <p aria-busy="true">Loading…</p>}
      {readers && (
        <>
          <p class="read-receipts-summary">
            {readers.length === 0 ? "No one has read this message yet." : `This message has been read by ${readers.length} ${readers.length === 1 ? "person" : "people"}:`}
          </p>
          <ul class="read-receipts">
            {people.map((u) => (
              <li key={u.user_id}>
                <Avatar url={u.avatar_url} userId={u.user_id} name={u.full_name} small />
                <span>{u.full_name}</span>
              </li>
            ))}
          </ul>
          <p class="hint">People who turned off sharing read receipts are not listed.</p>
        </>
      )}
    </Dialog>
  );
}
