/**
 * Organization › Channel folders (spec 4.5): create (POST /channel_folders/create), rename and
 * describe, archive and unarchive (PATCH /channel_folders/{id}), and reorder (PATCH
 * /channel_folders with every folder's id, archived ones included). The list is the client state's,
 * kept current by channel_folder events.
 */
import { useState } from "preact/hooks";
import type { ChannelFolder } from "../state/types";
import { useClientState, useSession } from "../session";
import { ActionStatus, FormActions, TextField, useAction } from "./controls";
import { moveItem, ReorderButtons } from "./reorder";

function FolderFields({ idPrefix, name, description, setName, setDescription }: {
  idPrefix: string;
  name: string;
  description: string;
  setName(v: string): void;
  setDescription(v: string): void;
}) {
  const maxName = useClientState((s) => Number(s.register.max_channel_folder_name_length ?? 60));
  const maxDescription = useClientState((s) => Number(s.register.max_channel_folder_description_length ?? 1024));
  return (
    <div class="settings-row">
      <TextField id={`${idPrefix}-name`} label="Folder name" maxLength={maxName} value={name} onValue={setName} />
      <TextField id={`${idPrefix}-description`} label="Description" maxLength={maxDescription} value={description} onValue={setDescription} />
    </div>
  );
}

function CreateFolderForm() {
  const session = useSession();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const done = await action.run(() => session.api.post("/channel_folders/create", { name: name.trim(), description }), "Folder created");
    if (done) {
      setName("");
      setDescription("");
    }
  };
  return (
    <form class="settings-card" aria-labelledby="create-folder-title" onSubmit={(e) => void submit(e)}>
      <h2 id="create-folder-title">Create a folder</h2>
      <FolderFields idPrefix="new-folder" name={name} description={description} setName={setName} setDescription={setDescription} />
      <FormActions label="Create folder" state={action.state} />
    </form>
  );
}

function FolderRow({ folder, index, order }: { folder: ChannelFolder; index: number; order: readonly number[] }) {
  const session = useSession();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(folder.name);
  const [description, setDescription] = useState(folder.description);
  const action = useAction();
  const update = (params: Record<string, unknown>, done: string) => action.run(() => session.api.patch(`/channel_folders/${folder.id}`, params), done);
  const startEditing = () => {
    setName(folder.name);
    setDescription(folder.description);
    setEditing(true);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    if (await update({ name: name.trim(), description }, "Folder saved")) setEditing(false);
  };
  return (
    <li class="settings-list-item">
      {editing ? (
        <form aria-label={`Edit folder ${folder.name}`} onSubmit={(e) => void save(e)}>
          <FolderFields idPrefix={`folder-${folder.id}`} name={name} description={description} setName={setName} setDescription={setDescription} />
          <FormActions label="Save" state={action.state}>
            <button type="button" class="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </FormActions>
        </form>
      ) : (
        <>
          <div class="settings-list-row">
            <div class="settings-list-main">
              <strong>{folder.name}</strong> {folder.is_archived && <span class="settings-badge">Archived</span>}
              {folder.description && <div class="settings-muted">{folder.description}</div>}
            </div>
            <ReorderButtons
              name={folder.name}
              index={index}
              count={order.length}
              onMove={(delta) => void action.run(() => session.api.patch("/channel_folders", { order: moveItem(order, index, delta) }), "Order saved")}
            />
            <button type="button" class="button" onClick={startEditing}>
              Edit
            </button>
            <button type="button" class="button" onClick={() => void update({ is_archived: !folder.is_archived }, folder.is_archived ? "Folder unarchived" : "Folder archived")}>
              {folder.is_archived ? "Unarchive" : "Archive"}
            </button>
          </div>
          <ActionStatus state={action.state} />
        </>
      )}
    </li>
  );
}

export function FoldersAdminPage() {
  const folders = useClientState((s) => s.channelFolders);
  const sorted = [...folders].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const order = sorted.map((f) => f.id);
  return (
    <>
      <CreateFolderForm />
      <section class="settings-card" aria-labelledby="folders-title">
        <h2 id="folders-title">Folders</h2>
        {sorted.length === 0 ? (
          <p class="settings-empty">No channel folders yet.</p>
        ) : (
          <ol class="settings-list">
            {sorted.map((folder, index) => (
              <FolderRow key={folder.id} folder={folder} index={index} order={order} />
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
