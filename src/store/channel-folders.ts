/** SQL for channel folders (the lookup by id is store/channels getChannelFolder). */
import { sql } from "kysely";
import type { Tx } from "./db.js";
import type { ChannelFolderRow } from "./types.js";

type FolderChanges = Partial<Pick<ChannelFolderRow, "name" | "description" | "rendered_description" | "is_archived" | "order">>;

export async function listChannelFolders(tx: Tx, realmId: number, opts: { includeArchived: boolean }): Promise<ChannelFolderRow[]> {
  let q = tx.db.selectFrom("channel_folders").selectAll().where("realm_id", "=", realmId);
  if (!opts.includeArchived) q = q.where("is_archived", "=", false);
  return q.orderBy("order").orderBy("id").execute();
}

/**
 * Folder names are unique per realm, compared case-insensitively by the database's lower() on
 * both sides, as the unique index compares them (JavaScript's toLowerCase differs: "İ").
 */
export async function getChannelFolderByName(tx: Tx, realmId: number, name: string): Promise<ChannelFolderRow | undefined> {
  return tx.db
    .selectFrom("channel_folders")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where(sql<string>`lower(name)`, "=", sql<string>`lower(${name})`)
    .executeTakeFirst();
}

/** Inserts after the realm's last folder. */
export async function insertChannelFolder(
  tx: Tx,
  folder: Pick<ChannelFolderRow, "realm_id" | "name" | "description" | "rendered_description" | "creator_id" | "date_created">,
): Promise<number> {
  const max = await tx.db.selectFrom("channel_folders").select((eb) => eb.fn.max("order").as("m")).where("realm_id", "=", folder.realm_id).executeTakeFirst();
  const order = max?.m == null ? 0 : Number(max.m) + 1;
  const row = await tx.db.insertInto("channel_folders").values({ ...folder, order }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateChannelFolder(tx: Tx, id: number, changes: FolderChanges): Promise<void> {
  await tx.db.updateTable("channel_folders").set(changes).where("id", "=", id).execute();
}

/** Whether any channel, archived or not, is in the folder. */
export async function folderHasChannels(tx: Tx, folderId: number): Promise<boolean> {
  const row = await tx.db.selectFrom("channels").select("id").where("folder_id", "=", folderId).executeTakeFirst();
  return row !== undefined;
}
