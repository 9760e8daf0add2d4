/**
 * Your custom profile fields (spec 4.16): one control per field type (Zulip's eight: short and
 * long text, list of options, date, link, users, external account, pronouns), saved together with
 * PATCH /users/me/profile_data. Only changed fields are sent; an emptied field is sent as null,
 * which removes the value. Fields administrators reserved for themselves are shown read-only.
 */
import { useState } from "preact/hooks";
import { isAdmin, me } from "../state/client-state";
import type { User } from "../state/types";
import { useClientState, useSession } from "../session";
import { Field, FormActions, useAction } from "./controls";
import { UserPicker } from "./pickers";

/** A field definition as GET /realm/profile_fields and register present it. */
interface ProfileField {
  id: number;
  name: string;
  type: number;
  hint: string;
  /** JSON text: options of a list field, subtype and URL pattern of an external account. */
  field_data: string;
  editable_by_user?: boolean;
  required?: boolean;
}

const TYPE = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

function parseData(field: ProfileField): Record<string, unknown> {
  try {
    return field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The ids of a Users field's value, stored as JSON text of an integer list. */
function userIds(value: string): number[] {
  try {
    const parsed: unknown = JSON.parse(value || "[]");
    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === "number") : [];
  } catch {
    return [];
  }
}

interface FieldInputProps {
  field: ProfileField;
  value: string;
  disabled: boolean;
  people: readonly User[];
  onChange(value: string): void;
}

function FieldInput({ field, value, disabled, people, onChange }: FieldInputProps) {
  const id = `profile-field-${field.id}`;
  const described = field.hint ? `${id}-hint` : undefined;
  const onInput = (e: Event) => onChange((e.currentTarget as HTMLInputElement).value);
  const common = { id, disabled, "aria-describedby": described, required: field.required };
  let control;
  switch (field.type) {
    case TYPE.LONG_TEXT:
      control = <textarea {...common} rows={3} value={value} onInput={onInput} />;
      break;
    case TYPE.SELECT: {
      const options = Object.entries(parseData(field) as Record<string, { text: string; order: string }>).sort((a, b) => Number(a[1].order) - Number(b[1].order));
      control = (
        <select {...common} value={value} onChange={onInput}>
          <option value="">—</option>
          {options.map(([key, option]) => (
            <option key={key} value={key}>
              {option.text}
            </option>
          ))}
        </select>
      );
      break;
    }
    case TYPE.USER:
      return (
        <UserPicker id={id} label={field.name} users={people} selected={userIds(value)} onChange={(ids) => onChange(ids.length ? JSON.stringify(ids) : "")} />
      );
    case TYPE.DATE:
      control = <input {...common} type="date" value={value} onInput={onInput} />;
      break;
    case TYPE.URL:
      control = <input {...common} type="url" value={value} onInput={onInput} />;
      break;
    default:
      control = <input {...common} type="text" value={value} onInput={onInput} />;
  }
  return (
    <Field id={id} label={field.name} hint={field.hint || undefined}>
      {control}
    </Field>
  );
}

export function ProfileFieldsForm() {
  const session = useSession();
  const fields = useClientState((s) => (s.register.custom_profile_fields ?? []) as ProfileField[]);
  const profile = useClientState((s) => me(s)?.profile_data ?? {});
  const admin = useClientState(isAdmin);
  const people = useClientState((s) => [...s.users.values()].filter((u) => u.is_active && !u.is_bot));
  const [edits, setEdits] = useState<Record<number, string>>({});
  const action = useAction();
  if (fields.length === 0) return null;
  const valueOf = (field: ProfileField) => edits[field.id] ?? profile[field.id]?.value ?? "";
  const changed = fields.filter((f) => f.id in edits && edits[f.id] !== (profile[f.id]?.value ?? ""));
  const submit = async (e: Event) => {
    e.preventDefault();
    const data = changed.map((f) => {
      const value = edits[f.id];
      if (value === "") return { id: f.id, value: null };
      return { id: f.id, value: f.type === TYPE.USER ? userIds(value) : value };
    });
    const done = await action.run(() => session.api.patch("/users/me/profile_data", { data }), "Profile saved");
    if (done) setEdits({});
  };
  return (
    <form class="settings-card" aria-labelledby="profile-fields-title" onSubmit={(e) => void submit(e)}>
      <h2 id="profile-fields-title">Profile</h2>
      {fields.map((field) => (
        <FieldInput
          key={field.id}
          field={field}
          value={valueOf(field)}
          people={people}
          disabled={field.editable_by_user === false && !admin}
          onChange={(value) => setEdits((e) => ({ ...e, [field.id]: value }))}
        />
      ))}
      <FormActions label="Save profile" state={action.state} disabled={changed.length === 0} />
    </form>
  );
}
