/**
 * Choosers used by several settings pages: a list of users (channel subscribers, group members,
 * the Users profile field type), and a group-setting value (spec convention 6) for the can_*_group
 * permissions of channels and user groups.
 */
import { useState } from "preact/hooks";
import { useOptimistic } from "./controls";
import type { User, UserGroup } from "../state/types";

const userLabel = (u: User) => `${u.full_name} <${u.delivery_email || u.email}>`;

export interface UserPickerProps {
  id: string;
  label: string;
  /** The users that may be picked (active humans, usually). */
  users: readonly User[];
  selected: readonly number[];
  onChange(ids: number[]): void;
}

/** Picked users as removable chips, and a text box with suggestions to add one (Enter adds the only match). */
export function UserPicker({ id, label, users, selected, onChange }: UserPickerProps) {
  const [text, setText] = useState("");
  const byId = new Map(users.map((u) => [u.user_id, u]));
  const candidates = users.filter((u) => !selected.includes(u.user_id));
  const add = (user: User) => {
    onChange([...selected, user.user_id]);
    setText("");
  };
  const onInput = (value: string) => {
    const exact = candidates.find((u) => userLabel(u) === value);
    if (exact) add(exact);
    else setText(value);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const needle = text.trim().toLowerCase();
    const matches = candidates.filter((u) => userLabel(u).toLowerCase().includes(needle));
    if (needle !== "" && matches.length === 1) add(matches[0]);
  };
  return (
    <div class="settings-field">
      <label for={id}>{label}</label>
      <ul class="chips" aria-label={`${label}: selected`}>
        {selected.map((userId) => {
          const name = byId.get(userId)?.full_name ?? `User ${userId}`;
          return (
            <li key={userId} class="chip">
              {name}
              <button type="button" class="chip-remove" aria-label={`Remove ${name}`} onClick={() => onChange(selected.filter((s) => s !== userId))}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <input id={id} type="text" list={`${id}-options`} placeholder="Add a person…" value={text} autoComplete="off" onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)} onKeyDown={onKeyDown} />
      <datalist id={`${id}-options`}>
        {candidates.map((u) => (
          <option key={u.user_id} value={userLabel(u)} />
        ))}
      </datalist>
    </div>
  );
}

/** Zulip's names for the system groups, in the order its web app lists them. */
export const SYSTEM_GROUP_LABELS: ReadonlyArray<readonly [name: string, label: string]> = [
  ["role:everyone", "Everyone including guests"],
  ["role:members", "Everyone except guests"],
  ["role:fullmembers", "Full members"],
  ["role:moderators", "Moderators"],
  ["role:administrators", "Administrators"],
  ["role:owners", "Owners"],
  ["role:nobody", "Nobody"],
];

/** A group-setting value: a group id, or an anonymous group of users and subgroups (convention 6). */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export function groupDisplayName(group: UserGroup): string {
  return SYSTEM_GROUP_LABELS.find(([name]) => name === group.name)?.[1] ?? group.name;
}

export interface GroupSettingPickerProps {
  id: string;
  label: string;
  groups: readonly UserGroup[];
  value: GroupSettingValue | undefined;
  /** False for settings that may not be role:everyone (they would include guests). */
  allowEveryone: boolean;
  /** Returns the request when the change is saved at once (undefined as its result means it failed). */
  onChange(groupId: number): Promise<unknown> | void;
}

/** A select of the system groups and the organization's own groups; an anonymous group is shown as it is. */
export function GroupSettingPicker({ id, label, groups, value: serverValue, allowEveryone, onChange }: GroupSettingPickerProps) {
  const [value, choose] = useOptimistic(serverValue);
  const system = SYSTEM_GROUP_LABELS.filter(([name]) => allowEveryone || name !== "role:everyone")
    .map(([name, text]) => ({ group: groups.find((g) => g.is_system_group && g.name === name), text }))
    .filter((o): o is { group: UserGroup; text: string } => o.group !== undefined);
  const own = groups.filter((g) => !g.is_system_group && !g.deactivated);
  const custom = typeof value === "object";
  const pick = (groupId: number) => choose(groupId, onChange(groupId) ?? Promise.resolve(true));
  return (
    <div class="settings-field">
      <label for={id}>{label}</label>
      <select id={id} value={custom ? "custom" : String(value ?? "")} onChange={(e) => pick(Number((e.currentTarget as HTMLSelectElement).value))}>
        {value === undefined && <option value="">Default</option>}
        {custom && (
          <option value="custom" disabled>
            Custom: {value.direct_members.length} users, {value.direct_subgroups.length} groups
          </option>
        )}
        <optgroup label="Roles">
          {system.map(({ group, text }) => (
            <option key={group.id} value={String(group.id)}>
              {text}
            </option>
          ))}
        </optgroup>
        {own.length > 0 && (
          <optgroup label="Groups">
            {own.map((g) => (
              <option key={g.id} value={String(g.id)}>
                {g.name}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </div>
  );
}

/** One can_*_group setting; `allowEveryone` is false for those that may not include guests (Zulip's allow_everyone_group). */
export interface Permission {
  name: string;
  label: string;
  allowEveryone: boolean;
}

/** A fieldset of group-setting pickers, one per permission of a channel or a user group. */
export function PermissionPickers(props: {
  idPrefix: string;
  permissions: readonly Permission[];
  groups: readonly UserGroup[];
  values: Readonly<Record<string, unknown>>;
  onChange(name: string, groupId: number): Promise<unknown> | void;
}) {
  return (
    <fieldset class="settings-group settings-grid">
      <legend>Permissions</legend>
      {props.permissions.map((perm) => (
        <GroupSettingPicker
          key={perm.name}
          id={`${props.idPrefix}-${perm.name}`}
          label={perm.label}
          groups={props.groups}
          value={props.values[perm.name] as GroupSettingValue | undefined}
          allowEveryone={perm.allowEveryone}
          onChange={(groupId) => props.onChange(perm.name, groupId)}
        />
      ))}
    </fieldset>
  );
}
