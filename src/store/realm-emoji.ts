/** SQL for the realm's custom emoji (Zulip's RealmEmoji): rows are deactivated, never deleted. */
import type { Insertable, Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type RealmEmojiRow = Selectable<DB["realm_emoji"]>;

export async function insertRealmEmoji(tx: Tx, row: Insertable<DB["realm_emoji"]>): Promise<RealmEmojiRow> {
  return tx.db.insertInto("realm_emoji").values(row).returningAll().executeTakeFirstOrThrow();
}

/** The active emoji with this name (at most one: names are unique among active emoji). */
export async function getActiveRealmEmojiByName(tx: Tx, realmId: number, name: string): Promise<RealmEmojiRow | undefined> {
  return tx.db
    .selectFrom("realm_emoji")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("name", "=", name)
    .where("deactivated", "=", false)
    .executeTakeFirst();
}

/** An emoji (active or not: old messages still show it) by its image file name. */
export async function getRealmEmojiByFileName(tx: Tx, realmId: number, fileName: string): Promise<RealmEmojiRow | undefined> {
  return tx.db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).where("file_name", "=", fileName).executeTakeFirst();
}

/** The animated emoji whose file is `{baseName}.{gif, webp or png}` (its still is `{baseName}.png`). */
export async function getAnimatedRealmEmojiByBaseName(tx: Tx, realmId: number, baseName: string): Promise<RealmEmojiRow | undefined> {
  return tx.db
    .selectFrom("realm_emoji")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("file_name", "in", ["gif", "webp", "png"].map((ext) => `${baseName}.${ext}`))
    .where("is_animated", "=", true)
    .executeTakeFirst();
}

export async function deactivateRealmEmoji(tx: Tx, id: number): Promise<void> {
  await tx.db.updateTable("realm_emoji").set({ deactivated: true }).where("id", "=", id).execute();
}
