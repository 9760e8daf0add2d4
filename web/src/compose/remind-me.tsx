/**
 * "Remind me about this" on a message (issue 20; POST /reminders, Zulip's create-message-reminder):
 * a time and an optional note; Notification Bot brings the message back to the user then. The
 * reminder is listed, and can be deleted, in the scheduled view (`#/scheduled`).
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { useSession } from "../session";
import { formatWhen } from "./time";
import { TimePicker } from "./time-picker";

/** Zulip's max_reminder_note_length. */
const MAX_NOTE_LENGTH = 1000;

export function RemindMe({ messageId }: { messageId: number }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const [status, setStatus] = useState("");

  async function remind(seconds: number): Promise<string | null> {
    try {
      await session.api.post("/reminders", { message_id: messageId, scheduled_delivery_timestamp: seconds, note: note.trim() || undefined });
      setStatus(`Reminder set for ${formatWhen(seconds)}`);
      setNote("");
      return null;
    } catch (e) {
      return e instanceof ApiError ? e.msg : String(e);
    }
  }

  return (
    <>
      <button type="button" class="icon-button" aria-label="Remind me about this" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(!open)}>
        ⏰
      </button>
      {open && (
        <TimePicker label="Remind me about this message" confirm="Set reminder" class="below" onConfirm={remind} onClose={() => setOpen(false)}>
          <label for={`reminder-note-${messageId}`}>Note (optional)</label>
          <input id={`reminder-note-${messageId}`} maxLength={MAX_NOTE_LENGTH} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        </TimePicker>
      )}
      {status && (
        <span class="action-status" role="status">
          {status}
        </span>
      )}
    </>
  );
}
