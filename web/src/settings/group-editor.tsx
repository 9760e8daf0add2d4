/**
 * One user group (spec 4.13, 4.20): name and description (PATCH /user_groups/{id}), members
 * (POST /user_groups/{id}/members with the users added and removed), each can_*_group permission
 * (PATCH with `{"new": group}`), and deactivation (POST …/deactivate; PATCH deactivated=false undoes
 * it). The group is the client state's, kept current by user_group events.
 */
import { settingsHref } from "../router";
import type { UserGroup } from "../state/types";
import { useClientState, useSession } from "../session";
import { ActionStatus, FormActions, TextField, useAction, useDraft } from "./controls";
import { PermissionPickers, UserPicker, type Permission } from "./pickers";

/** The permissions of a user group; the restricted ones may not include guests (role:everyone). */
export const GROUP_PERMISSIONS: readonly Permission[] = [
  { name: "can_mention_group", label: "Who can mention this group", allowEveryone: true },
  { name: "can_manage_group", label: "Who can manage this group", allowEveryone: false },
  { name: "can_add_members_group", label: "Who can add members", allowEveryone: false },
  { name: "can_remove_members_group", label: "Who can remove members", allowEveryone: false },
  { name: "can_join_group", label: "Who can join this group", allowEveryone: false },
  { name: "can_leave_group", label: "Who can leave this group", allowEveryone: true },
];

function DetailsForm({ group }: { group: UserGroup }) {
  const session = useSession();
  const [name, setName] = useDraft(group.name);
  const [description, setDescription] = useDraft(group.description);
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const params: Record<string, string> = {};
    if (name.trim() !== group.name) params.name = name.trim();
    if (description !== group.description) params.description = description;
    if (Object.keys(params).length > 0) void action.run(() => session.api.patch(`/user_groups/${group.id}`, params));
  };
  return (
    <form class="settings-card" aria-labelledby="group-details-title" onSubmit={submit}>
      <h3 id="group-details-title">General</h3>
      <div class="settings-row">
        <TextField id="edit-group-name" label="Group name" required value={name} onValue={setName} />
        <TextField id="edit-group-description" label="Description" value={description} onValue={setDescription} />
      </div>
      <FormActions label="Save changes" state={action.state} />
    </form>
  );
}

function MembersForm({ group }: { group: UserGroup }) {
  const session = useSession();
  const people = useClientState((s) => [...s.users.values()].filter((u) => u.is_active));
  const [members, setMembers] = useDraft<number[]>(group.members, group.members.join(","));
  const action = useAction();
  const add = members.filter((m) => !group.members.includes(m));
  const remove = group.members.filter((m) => !members.includes(m));
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(() => session.api.post(`/user_groups/${group.id}/members`, { add, delete: remove }), "Members updated");
  };
  return (
    <form class="settings-card" aria-labelledby="group-members-title" onSubmit={submit}>
      <h3 id="group-members-title">Members</h3>
      <UserPicker id="group-members" label="Group members" users={people} selected={members} onChange={setMembers} />
      <FormActions label="Save members" state={action.state} disabled={add.length + remove.length === 0} />
    </form>
  );
}

export function GroupEditor({ group }: { group: UserGroup }) {
  const session = useSession();
  const groups = useClientState((s) => s.userGroups);
  const action = useAction();
  const deactivate = () => {
    if (window.confirm(`Deactivate the group ${group.name}?`)) void action.run(() => session.api.post(`/user_groups/${group.id}/deactivate`), "Group deactivated");
  };
  return (
    <section aria-labelledby="group-edit-title">
      <p>
        <a href={settingsHref("organization", "groups")}>← All groups</a>
      </p>
      <h2 id="group-edit-title">
        {group.name} {group.deactivated && <span class="settings-badge">Deactivated</span>}
      </h2>
      <DetailsForm group={group} />
      <MembersForm group={group} />
      <div class="settings-card">
        <PermissionPickers
          idPrefix="edit-group"
          permissions={GROUP_PERMISSIONS}
          groups={groups.filter((g) => g.id !== group.id)}
          values={group}
          onChange={(name, groupId) => action.run(() => session.api.patch(`/user_groups/${group.id}`, { [name]: { new: groupId } }))}
        />
        <div class="settings-actions">
          {group.deactivated ? (
            <button type="button" class="button" onClick={() => void action.run(() => session.api.patch(`/user_groups/${group.id}`, { deactivated: false }), "Group reactivated")}>
              Reactivate group
            </button>
          ) : (
            <button type="button" class="button button-danger" onClick={deactivate}>
              Deactivate group
            </button>
          )}
        </div>
        <ActionStatus state={action.state} />
      </div>
    </section>
  );
}
