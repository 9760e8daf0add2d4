/**
 * Building blocks shared by the settings pages: running an API call with a visible outcome (the
 * server's own error message shown, spec 7), and the labelled control for one personal setting.
 */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import type { SettingDef, SettingValue } from "./setting-defs";

export type ActionState = { kind: "idle" } | { kind: "busy" } | { kind: "done"; message: string } | { kind: "error"; message: string };

/**
 * The message to show for a failed call: the server's `msg` (Zulip's wording) or the exception's.
 * INVITATION_FAILED (spec 7) lists each refused address with its reason in `errors`.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const details = Array.isArray(error.body.errors) ? (error.body.errors as unknown[][]).map(([email, reason]) => `${String(email)}: ${String(reason)}`) : [];
  return [error.msg, ...details].join(" ");
}

export interface Action {
  state: ActionState;
  /** Runs `call`; on success shows `doneMessage` and returns the result, on failure shows the error and returns undefined. */
  run<T>(call: () => Promise<T>, doneMessage?: string): Promise<T | undefined>;
}

/**
 * The value a control shows for a server-held setting: the user's choice while its request is on
 * its way, then the server's value again once that changes (the event or refetch brought it back)
 * or the request failed (Preact keeps controlled inputs on their prop, so without this a choice
 * would snap back until the server's value arrives).
 */
export function useOptimistic<T>(serverValue: T): [shown: T, choose: (value: T, request: Promise<unknown>) => void] {
  const [local, setLocal] = useState<{ value: T } | null>(null);
  useEffect(() => setLocal(null), [serverValue]);
  const choose = (value: T, request: Promise<unknown>) => {
    setLocal({ value });
    // action.run resolves to undefined when the request failed.
    void request.then((result) => result === undefined && setLocal(null));
  };
  return [local ? local.value : serverValue, choose];
}

/**
 * A form's editable copy of a server value, reset whenever the server's value changes (after a
 * save, or another administrator's edit) while the form, and the outcome it shows, stay in place.
 * `version` identifies the server value for values compared by identity (lists).
 */
export function useDraft<T>(serverValue: T, version: unknown = serverValue): [T, (value: T) => void] {
  const [draft, setDraft] = useState(serverValue);
  useEffect(() => setDraft(serverValue), [version]);
  return [draft, setDraft];
}

/** One kind of request a page can make, with its last outcome. */
export function useAction(): Action {
  const [state, setState] = useState<ActionState>({ kind: "idle" });
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const run = useCallback(async <T,>(call: () => Promise<T>, doneMessage = "Saved") => {
    setState({ kind: "busy" });
    try {
      const result = await call();
      if (mounted.current) setState({ kind: "done", message: doneMessage });
      return result;
    } catch (error) {
      if (mounted.current) setState({ kind: "error", message: errorText(error) });
      return undefined;
    }
  }, []);
  return { state, run };
}

/** The outcome of an action, announced to screen readers: errors as alerts, the rest politely. */
export function ActionStatus({ state }: { state: ActionState }) {
  if (state.kind === "error") {
    return (
      <p class="settings-status settings-status-error" role="alert">
        {state.message}
      </p>
    );
  }
  const text = state.kind === "busy" ? "Saving…" : state.kind === "done" ? state.message : "";
  return (
    <p class={`settings-status ${state.kind === "done" ? "settings-status-done" : ""}`} role="status" aria-live="polite">
      {text}
    </p>
  );
}

/** A labelled block: the label above its control, with an optional hint tied by aria-describedby. */
export function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="settings-field">
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} class="settings-hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** A labelled one-line text box, or a text area when `rows` is given. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  hint?: string;
  rows?: number;
  required?: boolean;
  maxLength?: number;
  disabled?: boolean;
}) {
  const { id, value, rows, hint } = props;
  const common = { id, value, required: props.required, maxLength: props.maxLength, disabled: props.disabled, "aria-describedby": hint ? `${id}-hint` : undefined };
  const onInput = (e: Event) => props.onValue((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value);
  return (
    <Field id={id} label={props.label} hint={hint}>
      {rows ? <textarea {...common} rows={rows} onInput={onInput} /> : <input {...common} type="text" onInput={onInput} />}
    </Field>
  );
}

/** A form's submit button (with any other buttons) and the outcome of its request. */
export function FormActions({ label, state, disabled, children }: { label: string; state: ActionState; disabled?: boolean; children?: ComponentChildren }) {
  return (
    <>
      <div class="settings-actions">
        <button type="submit" class="button primary" disabled={disabled || state.kind === "busy"}>
          {label}
        </button>
        {children}
      </div>
      <ActionStatus state={state} />
    </>
  );
}

/** A table of the organization's things: a caption for screen readers, column headers, rows. */
export function SettingsTable({ caption, columns, children }: { caption: string; columns: readonly string[]; children: ComponentChildren }) {
  return (
    <table class="settings-table">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A checkbox with its label to the right, the way Zulip lays out boolean settings. */
export function Checkbox(props: { id: string; label: string; checked: boolean; disabled?: boolean; onChange(checked: boolean): void }) {
  return (
    <div class="settings-checkbox">
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)}
      />
      <label for={props.id}>{props.label}</label>
    </div>
  );
}

/**
 * The control for one setting, saved as soon as it changes (`save` returns the request); text and
 * numbers are committed on change (blur or Enter), not per keystroke.
 */
export function SettingControl({ def, value: serverValue, idPrefix, save }: { def: SettingDef; value: SettingValue | undefined; idPrefix: string; save(value: SettingValue): Promise<unknown> }) {
  const id = `${idPrefix}-${def.name}`;
  const [value, choose] = useOptimistic(serverValue);
  const onChange = (next: SettingValue) => choose(next, save(next));
  if (def.kind === "boolean") return <Checkbox id={id} label={def.label} checked={value === true} onChange={onChange} />;
  if (def.kind === "select") {
    const options = def.options ?? [];
    const index = options.findIndex(([v]) => v === value);
    return (
      <Field id={id} label={def.label}>
        <select id={id} value={String(index)} onChange={(e) => onChange(options[Number((e.currentTarget as HTMLSelectElement).value)][0])}>
          {index < 0 && <option value="-1">{value === undefined ? "—" : String(value)}</option>}
          {options.map(([, label], i) => (
            <option key={i} value={String(i)}>
              {label}
            </option>
          ))}
        </select>
      </Field>
    );
  }
  const commit = (e: Event) => {
    const raw = (e.currentTarget as HTMLInputElement).value.trim();
    if (raw !== "") onChange(def.kind === "number" ? Number(raw) : raw);
  };
  const shown = value === undefined ? "" : String(value);
  return (
    <Field id={id} label={def.label}>
      {def.kind === "number" ? (
        <input id={id} type="number" min={def.min} max={def.max} value={shown} onChange={commit} />
      ) : (
        <input id={id} type="text" value={shown} onChange={commit} />
      )}
    </Field>
  );
}
