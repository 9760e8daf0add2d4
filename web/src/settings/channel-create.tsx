/**
 * Creating a channel (spec 4.3, POST /channels/create): name, description, privacy, folder,
 * initial subscribers (you, to start with), default-channel flag, announcement, and any permission
 * changed from Zulip's defaults. Bounds come from the register response.
 */
import { useState } from "preact/hooks";
import { navigate, settingsHref } from "../router";
import { useClientState, useSession } from "../session";
import { CHANNEL_PERMISSIONS, FolderSelect, PrivacyFieldset, privacyFlags, type Privacy } from "./channel-options";
import { Checkbox, FormActions, TextField, useAction } from "./controls";
import { PermissionPickers, UserPicker } from "./pickers";

export function ChannelCreateForm() {
  const session = useSession();
  const userId = useClientState((s) => s.userId);
  const people = useClientState((s) => [...s.users.values()].filter((u) => u.is_active));
  const groups = useClientState((s) => s.userGroups);
  const maxName = useClientState((s) => Number(s.register.max_stream_name_length ?? 60));
  const maxDescription = useClientState((s) => Number(s.register.max_stream_description_length ?? 1024));
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [privacy, setPrivacy] = useState<Privacy>("public");
  const [folderId, setFolderId] = useState<number | null>(null);
  const [subscribers, setSubscribers] = useState<number[]>([userId]);
  const [isDefault, setIsDefault] = useState(false);
  const [announce, setAnnounce] = useState(true);
  const [permissions, setPermissions] = useState<Record<string, number>>({});
  const action = useAction();

  const submit = async (e: Event) => {
    e.preventDefault();
    const flags = privacyFlags(privacy);
    const created = await action.run(
      () =>
        session.api.post<{ id: number }>("/channels/create", {
          name: name.trim(),
          description,
          subscribers,
          invite_only: flags.private,
          is_web_public: flags.is_web_public,
          history_public_to_subscribers: flags.history_public_to_subscribers,
          is_default_stream: isDefault,
          announce,
          folder_id: folderId ?? undefined,
          ...permissions,
        }),
      "Channel created",
    );
    if (created) navigate(settingsHref("organization", "channels", String(created.id)));
  };

  return (
    <form class="settings-card" aria-labelledby="create-channel-title" onSubmit={(e) => void submit(e)}>
      <h2 id="create-channel-title">Create a channel</h2>
      <div class="settings-row">
        <TextField id="channel-name" label="Channel name" required maxLength={maxName} value={name} onValue={setName} />
        <FolderSelect id="channel-folder" value={folderId} onChange={setFolderId} />
      </div>
      <TextField id="channel-description" label="Description" hint="Markdown is supported." rows={2} maxLength={maxDescription} value={description} onValue={setDescription} />
      <PrivacyFieldset idPrefix="create" value={privacy} onChange={setPrivacy} />
      <UserPicker id="channel-subscribers" label="Subscribers" users={people} selected={subscribers} onChange={setSubscribers} />
      <Checkbox id="channel-default" label="Default channel for new users" checked={isDefault} onChange={setIsDefault} />
      <Checkbox id="channel-announce" label="Announce the new channel" checked={announce} onChange={setAnnounce} />
      <details class="settings-details">
        <summary>Permissions</summary>
        <PermissionPickers idPrefix="create" permissions={CHANNEL_PERMISSIONS} groups={groups} values={permissions} onChange={(perm, groupId) => setPermissions((p) => ({ ...p, [perm]: groupId }))} />
      </details>
      <FormActions label="Create channel" state={action.state}>
        <a class="button" href={settingsHref("organization", "channels")}>
          Cancel
        </a>
      </FormActions>
    </form>
  );
}
