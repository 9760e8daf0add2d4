/**
 * A page of personal settings, saved as soon as one changes (as Zulip's settings are), with the
 * outcome shown beside the group that changed. The same form edits a user's own settings and the
 * organization's defaults for new users; the caller says where values come from and go to.
 */
import { ActionStatus, SettingControl, useAction } from "./controls";
import type { SettingGroup, SettingValue } from "./setting-defs";

export interface SettingsFormProps {
  groups: readonly SettingGroup[];
  values: Readonly<Record<string, unknown>>;
  /** Sends one changed setting; the new value reaches `values` through the server's event. */
  save(change: Record<string, SettingValue>): Promise<unknown>;
  idPrefix: string;
}

function GroupFieldset({ group, values, save, idPrefix }: { group: SettingGroup } & Omit<SettingsFormProps, "groups">) {
  const action = useAction();
  const titleId = `${idPrefix}-${group.id}-title`;
  return (
    <fieldset class="settings-group" aria-labelledby={titleId}>
      <legend id={titleId}>{group.title}</legend>
      {group.settings.map((def) => (
        <SettingControl
          key={def.name}
          def={def}
          idPrefix={idPrefix}
          value={values[def.name] as SettingValue | undefined}
          save={(value) => action.run(() => save({ [def.name]: value }))}
        />
      ))}
      <ActionStatus state={action.state} />
    </fieldset>
  );
}

export function SettingsForm(props: SettingsFormProps) {
  return (
    <div class="settings-groups">
      {props.groups.map((group) => (
        <GroupFieldset key={group.id} group={group} values={props.values} save={props.save} idPrefix={props.idPrefix} />
      ))}
    </div>
  );
}
