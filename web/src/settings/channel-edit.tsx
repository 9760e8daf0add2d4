/**
 * Editing one channel (PATCH /streams/{id}): name, description and folder, privacy, the default-
 * channel flag, each permission (sent as `{"new": group}`), and archiving (DELETE /streams/{id}) or
 * unarchiving (is_archived=false). The channel comes from the page's GET /streams list, which is
 * fetched again on every stream event, so what is shown is what the server holds.
 */
import { settingsHref } from "../router";
import type { Channel } from "../state/types";
import { useClientState, useSession } from "../session";
import { CHANNEL_PERMISSIONS, FolderSelect, PrivacyFieldset, privacyFlags, privacyOf, type Privacy } from "./channel-options";
import { ActionStatus, Checkbox, FormActions, TextField, useAction, useDraft, useOptimistic } from "./controls";
import { PermissionPickers } from "./pickers";

type Params = Record<string, unknown>;

function DetailsForm({ channel, save }: { channel: Channel; save(params: Params): Promise<unknown> }) {
  const [name, setName] = useDraft(channel.name);
  const [description, setDescription] = useDraft(channel.description);
  const [folderId, setFolderId] = useDraft<number | null>(channel.folder_id ?? null);
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const params: Params = {};
    if (name.trim() !== channel.name) params.new_name = name.trim();
    if (description !== channel.description) params.description = description;
    if (folderId !== (channel.folder_id ?? null)) params.folder_id = folderId;
    if (Object.keys(params).length === 0) return;
    void action.run(() => save(params));
  };
  return (
    <form class="settings-card" aria-labelledby="channel-details-title" onSubmit={submit}>
      <h3 id="channel-details-title">General</h3>
      <div class="settings-row">
        <TextField id="edit-channel-name" label="Channel name" required value={name} onValue={setName} />
        <FolderSelect id="edit-channel-folder" value={folderId} onChange={setFolderId} />
      </div>
      <TextField id="edit-channel-description" label="Description" rows={2} value={description} onValue={setDescription} />
      <FormActions label="Save changes" state={action.state} />
    </form>
  );
}

function PrivacyForm({ channel, save }: { channel: Channel; save(params: Params): Promise<unknown> }) {
  const [privacy, setPrivacy] = useDraft<Privacy>(privacyOf(channel));
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const flags = privacyFlags(privacy);
    void action.run(() => save({ is_private: flags.private, is_web_public: flags.is_web_public, history_public_to_subscribers: flags.history_public_to_subscribers }), "Privacy changed");
  };
  return (
    <form class="settings-card" aria-label="Channel privacy" onSubmit={submit}>
      <PrivacyFieldset idPrefix="edit" value={privacy} onChange={setPrivacy} />
      <FormActions label="Change privacy" state={action.state} disabled={privacy === privacyOf(channel)} />
    </form>
  );
}

export function ChannelEditor({ channel }: { channel: Channel }) {
  const session = useSession();
  const groups = useClientState((s) => s.userGroups);
  const general = useAction();
  const [isDefault, chooseDefault] = useOptimistic(Boolean(channel.is_default));
  const save = (params: Params) => session.api.patch(`/streams/${channel.stream_id}`, params);
  const archive = () => {
    if (!window.confirm(`Archive #${channel.name}? Nobody will be able to send messages to it.`)) return;
    void general.run(() => session.api.delete(`/streams/${channel.stream_id}`), "Channel archived");
  };
  return (
    <section aria-labelledby="channel-edit-title">
      <p>
        <a href={settingsHref("organization", "channels")}>← All channels</a>
      </p>
      <h2 id="channel-edit-title">
        #{channel.name} {channel.is_archived && <span class="settings-badge">Archived</span>}
      </h2>
      <DetailsForm channel={channel} save={save} />
      <PrivacyForm channel={channel} save={save} />
      <div class="settings-card">
        <Checkbox id="edit-channel-default" label="Default channel for new users" checked={isDefault} onChange={(checked) => chooseDefault(checked, general.run(() => save({ is_default_stream: checked })))} />
        <PermissionPickers idPrefix="edit" permissions={CHANNEL_PERMISSIONS} groups={groups} values={channel} onChange={(name, groupId) => general.run(() => save({ [name]: { new: groupId } }))} />
        <div class="settings-actions">
          {channel.is_archived ? (
            <button type="button" class="button" onClick={() => void general.run(() => save({ is_archived: false }), "Channel unarchived")}>
              Unarchive channel
            </button>
          ) : (
            <button type="button" class="button button-danger" onClick={archive}>
              Archive channel
            </button>
          )}
        </div>
        <ActionStatus state={general.state} />
      </div>
    </section>
  );
}
