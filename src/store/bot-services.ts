/** SQL for outgoing-webhook bots' services (Zulip's Service; migration 0017). */
import type { Selectable } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type BotServiceRow = Selectable<DB["bot_services"]>;

export async function insertBotService(tx: Tx, row: Omit<BotServiceRow, "id">): Promise<number> {
  return (await tx.db.insertInto("bot_services").values(row).returning("id").executeTakeFirstOrThrow()).id;
}

export async function getBotServices(tx: Tx, botIds: readonly number[]): Promise<BotServiceRow[]> {
  if (botIds.length === 0) return [];
  return tx.db.selectFrom("bot_services").selectAll().where("bot_id", "in", [...botIds]).orderBy("id").execute();
}

/** Changes an outgoing-webhook bot's service (its first: Zulip gives a bot one); null when it has none. */
export async function updateBotService(tx: Tx, botId: number, changes: { base_url: string; interface: number }): Promise<BotServiceRow | null> {
  const service = (await getBotServices(tx, [botId]))[0];
  if (!service) return null;
  await tx.db.updateTable("bot_services").set(changes).where("id", "=", service.id).execute();
  return { ...service, ...changes };
}
