/**
 * Organization › User groups: the organization's own groups (system groups are roles, managed on
 * the Users page), creating one (spec 4.13, POST /user_groups/create with its initial members and
 * any permission changed from the defaults), and `…/groups/<id>` to edit one.
 */
import { useState } from "preact/hooks";
import { navigate, settingsHref } from "../router";
import { useClientState, useSession } from "../session";
import { FormActions, SettingsTable, TextField, useAction } from "./controls";
import { GROUP_PERMISSIONS, GroupEditor } from "./group-editor";
import { PermissionPickers, UserPicker } from "./pickers";

function CreateGroupForm() {
  const session = useSession();
  const userId = useClientState((s) => s.userId);
  const people = useClientState((s) => [...s.users.values()].filter((u) => u.is_active));
  const groups = useClientState((s) => s.userGroups);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [members, setMembers] = useState<number[]>([userId]);
  const [permissions, setPermissions] = useState<Record<string, number>>({});
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const created = await action.run(
      () => session.api.post<{ group_id: number }>("/user_groups/create", { name: name.trim(), description, members, ...permissions }),
      "Group created",
    );
    if (created) navigate(settingsHref("organization", "groups", String(created.group_id)));
  };
  return (
    <form class="settings-card" aria-labelledby="create-group-title" onSubmit={(e) => void submit(e)}>
      <h2 id="create-group-title">Create a user group</h2>
      <div class="settings-row">
        <TextField id="group-name" label="Group name" required value={name} onValue={setName} />
        <TextField id="group-description" label="Description" value={description} onValue={setDescription} />
      </div>
      <UserPicker id="new-group-members" label="Members" users={people} selected={members} onChange={setMembers} />
      <details class="settings-details">
        <summary>Permissions</summary>
        <PermissionPickers idPrefix="create-group" permissions={GROUP_PERMISSIONS} groups={groups} values={permissions} onChange={(perm, id) => setPermissions((p) => ({ ...p, [perm]: id }))} />
      </details>
      <FormActions label="Create group" state={action.state} />
    </form>
  );
}

function GroupList() {
  const groups = useClientState((s) => s.userGroups.filter((g) => !g.is_system_group));
  const [showDeactivated, setShowDeactivated] = useState(false);
  const shown = groups.filter((g) => Boolean(g.deactivated) === showDeactivated).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section class="settings-card" aria-labelledby="groups-title">
      <h2 id="groups-title">User groups</h2>
      <label class="settings-inline">
        <input type="checkbox" checked={showDeactivated} onChange={(e) => setShowDeactivated((e.currentTarget as HTMLInputElement).checked)} /> Show deactivated groups
      </label>
      {shown.length === 0 ? (
        <p class="settings-empty">No groups.</p>
      ) : (
        <SettingsTable caption="User groups" columns={["Name", "Description", "Members"]}>
          {shown.map((g) => (
            <tr key={g.id}>
              <th scope="row">
                <a href={settingsHref("organization", "groups", String(g.id))}>{g.name}</a>
              </th>
              <td>{g.description}</td>
              <td>{g.members.length}</td>
            </tr>
          ))}
        </SettingsTable>
      )}
    </section>
  );
}

export function GroupsAdminPage({ sub }: { sub: string | undefined }) {
  const group = useClientState((s) => s.userGroups.find((g) => String(g.id) === sub && !g.is_system_group));
  if (sub !== undefined) return group ? <GroupEditor key={group.id} group={group} /> : <p>No such group.</p>;
  return (
    <>
      <CreateGroupForm />
      <GroupList />
    </>
  );
}
