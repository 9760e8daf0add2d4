/**
 * Channel folders (spec 4.5; Zulip's create/get/update/reorder-channel-folder(s)): administrators
 * create, rename, describe, archive and reorder them; everyone may list them and hears of each
 * change (channel_folder events).
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { getChannelFolderByName, folderHasChannels, insertChannelFolder, listChannelFolders, updateChannelFolder } from "../../store/channel-folders.js";
import { getChannelFolder } from "../../store/channels.js";
import { transaction, type Tx } from "../../store/db.js";
import type { ChannelFolderRow, RealmRow, UserRow } from "../../store/types.js";
import { listActiveUserIds } from "../../store/users.js";
import { renderContent } from "../messages/render.js";

export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

export const invalidChannelFolder = () => new ApiError("Invalid channel folder ID");

export function presentChannelFolder(folder: ChannelFolderRow): Record<string, unknown> {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.rendered_description,
    creator_id: folder.creator_id,
    date_created: folder.date_created,
    is_archived: folder.is_archived,
    order: folder.order,
  };
}

export async function listChannelFoldersForApi(tx: Tx, realmId: number, includeArchived: boolean): Promise<Record<string, unknown>[]> {
  return (await listChannelFolders(tx, realmId, { includeArchived })).map(presentChannelFolder);
}

async function publishFolderEvent(deps: AppDeps, tx: Tx, realmId: number, event: { op: string } & Record<string, unknown>): Promise<void> {
  publishOnCommit(tx, deps.events, { type: "channel_folder", ...event }, await listActiveUserIds(tx, realmId));
}

/** Zulip's check_channel_folder_name: not blank, printable, not used by another folder. */
async function checkFolderName(tx: Tx, realm: RealmRow, name: string, exceptId?: number): Promise<void> {
  if (name.trim() === "") throw new ApiError("Channel folder name can't be empty.");
  // eslint-disable-next-line no-control-regex
  const bad = [...name].findIndex((c) => /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]/.test(c));
  if (bad >= 0) throw new ApiError(`Invalid character in channel folder name, at position ${bad + 1}.`);
  const existing = await getChannelFolderByName(tx, realm.id, name);
  if (existing && existing.id !== exceptId) throw new ApiError("Channel folder name already in use");
}

async function render(deps: AppDeps, tx: Tx, realm: RealmRow, actor: UserRow, description: string): Promise<string> {
  if (description === "") return "";
  return (await renderContent({ tx, realm, config: deps.config, senderId: actor.id, content: description })).html;
}

/** POST /channel_folders/create; returns the folder id. */
export async function createChannelFolder(deps: AppDeps, realm: RealmRow, actor: UserRow, name: string, description: string): Promise<number> {
  return transaction(deps.store, async (tx) => {
    await checkFolderName(tx, realm, name);
    const id = await insertChannelFolder(tx, {
      realm_id: realm.id,
      name,
      description,
      rendered_description: await render(deps, tx, realm, actor, description),
      creator_id: actor.id,
      date_created: deps.clock.now(),
    });
    const folder = (await getChannelFolder(tx, realm.id, id)) as ChannelFolderRow;
    await publishFolderEvent(deps, tx, realm.id, { op: "add", channel_folder: presentChannelFolder(folder) });
    return id;
  });
}

export interface FolderChanges {
  name?: string;
  description?: string;
  isArchived?: boolean;
}

/** PATCH /channel_folders/{id}: only what differs changes; archiving needs an empty folder. */
export async function updateChannelFolderProperties(deps: AppDeps, realm: RealmRow, actor: UserRow, id: number, changes: FolderChanges): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const folder = await getChannelFolder(tx, realm.id, id);
    if (!folder) throw invalidChannelFolder();
    const data: Record<string, unknown> = {};
    if (changes.name !== undefined && changes.name !== folder.name) {
      await checkFolderName(tx, realm, changes.name, folder.id);
      data.name = changes.name;
    }
    if (changes.description !== undefined && changes.description !== folder.description) {
      data.description = changes.description;
      data.rendered_description = await render(deps, tx, realm, actor, changes.description);
    }
    if (changes.isArchived !== undefined && changes.isArchived !== folder.is_archived) {
      if (changes.isArchived && (await folderHasChannels(tx, folder.id))) {
        throw new ApiError("You need to remove all the channels from this folder to archive it.");
      }
      data.is_archived = changes.isArchived;
    }
    if (Object.keys(data).length === 0) return;
    await updateChannelFolder(tx, folder.id, data);
    await publishFolderEvent(deps, tx, realm.id, { op: "update", channel_folder_id: folder.id, data });
  });
}

/** PATCH /channel_folders: `order` must list every folder of the realm exactly once. */
export async function reorderChannelFolders(deps: AppDeps, realm: RealmRow, order: readonly number[]): Promise<void> {
  await transaction(deps.store, async (tx) => {
    const ids = (await listChannelFolders(tx, realm.id, { includeArchived: true })).map((f) => f.id);
    if (order.length !== ids.length || new Set(order).size !== ids.length || !order.every((id) => ids.includes(id))) {
      throw new ApiError("Invalid order mapping.");
    }
    for (const [position, id] of order.entries()) await updateChannelFolder(tx, id, { order: position });
    await publishFolderEvent(deps, tx, realm.id, { op: "reorder", order: [...order] });
  });
}
