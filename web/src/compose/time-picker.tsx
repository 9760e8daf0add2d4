/**
 * A small dialog asking "when?" (schedule send, remind me): preset times as buttons, or a date and
 * time field, then a confirm button. Escape or Cancel closes it; the caller does the request and
 * says whether it failed.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { fromLocalInput, timePresets, toLocalInput } from "./time";
import { PopoverDialog } from "./popover-dialog";

interface Props {
  label: string;
  confirm: string;
  /** Resolves to an error message, or null once done. */
  onConfirm: (seconds: number) => Promise<string | null>;
  onClose: () => void;
  children?: ComponentChildren;
  class?: string;
}

export function TimePicker({ label, confirm, onConfirm, onClose, children, class: className }: Props) {
  const presets = timePresets();
  const [value, setValue] = useState(toLocalInput(presets[0].date));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `time-${label.replace(/\W+/g, "-").toLowerCase()}`;
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);

  async function submit(e: Event) {
    e.preventDefault();
    const seconds = fromLocalInput(value);
    if (seconds === null) return setError("Choose a date and time.");
    if (seconds <= Date.now() / 1000) return setError("Choose a time in the future.");
    setBusy(true);
    const failed = await onConfirm(seconds);
    setBusy(false);
    if (failed) setError(failed);
    else onClose();
  }

  return (
    <PopoverDialog kind="time-picker" label={label} onClose={onClose} class={className}>
      <form onSubmit={(e) => void submit(e)}>
      <div class="time-presets" role="group" aria-label="Suggested times">
        {presets.map((p) => (
          <button key={p.label} type="button" class="button small" aria-pressed={toLocalInput(p.date) === value} onClick={() => setValue(toLocalInput(p.date))}>
            {p.label}
          </button>
        ))}
      </div>
      <label for={id}>Date and time</label>
      <input id={id} type="datetime-local" value={value} min={toLocalInput(new Date())} onInput={(e) => (setValue(e.currentTarget.value), setError(null))} ref={field} />
      {children}
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <div class="time-actions">
        <button type="button" class="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy}>
          {confirm}
        </button>
      </div>
      </form>
    </PopoverDialog>
  );
}
