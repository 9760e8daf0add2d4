/**
 * "Schedule send" from the compose box (issue 20; POST /scheduled_messages, Zulip's
 * create-scheduled-message): the message as composed, at a time chosen in a TimePicker.
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { useSession } from "../session";
import { TimePicker } from "./time-picker";

interface Props {
  disabled: boolean;
  /** The message's POST /messages parameters, or null when it has no recipient yet. */
  params: () => Record<string, unknown> | null;
  onScheduled: (seconds: number) => void;
}

export function ScheduleSend({ disabled, params, onScheduled }: Props) {
  const session = useSession();
  const [open, setOpen] = useState(false);

  async function schedule(seconds: number): Promise<string | null> {
    const message = params();
    if (!message) return "Choose who the message goes to first.";
    try {
      await session.api.post("/scheduled_messages", { ...message, scheduled_delivery_timestamp: seconds });
      onScheduled(seconds);
      return null;
    } catch (e) {
      return e instanceof ApiError ? e.msg : String(e);
    }
  }

  return (
    <span class="compose-schedule">
      <button type="button" class="button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(!open)} disabled={disabled}>
        Schedule
      </button>
      {open && <TimePicker label="Schedule message" confirm="Schedule" class="above right" onConfirm={schedule} onClose={() => setOpen(false)} />}
    </span>
  );
}
