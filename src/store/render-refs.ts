/** Lookups the Markdown renderer needs for one message: only the rows its source refers to. */
import { sql, type Selectable } from "kysely";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { DB } from "./schema.js";
import type { ChannelRow } from "./types.js";

export async function getUsersForMentions(tx: Tx, realmId: number, names: readonly string[], ids: readonly number[]) {
  if (names.length === 0 && ids.length === 0) return [];
  return tx.db
    .selectFrom("users")
    .select(["id", "full_name", "email", "is_active", "is_bot"])
    .where("realm_id", "=", realmId)
    .where((eb) =>
      eb.or([
        ...(names.length ? [eb(sql<string>`lower(full_name)`, "in", names.map((n) => n.toLowerCase()))] : []),
        ...(ids.length ? [eb("id", "in", ids)] : []),
      ]),
    )
    .execute();
}

export async function getNamedGroupsByNames(tx: Tx, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  const rows = await tx.db
    .selectFrom("user_groups")
    .select(["id", "name", "deactivated"])
    .where("realm_id", "=", realmId)
    .where("name", "is not", null)
    .where(sql<string>`lower(name)`, "in", names.map((n) => n.toLowerCase()))
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name as string, deactivated: r.deactivated }));
}

/** Channels by name, each with whether `userId` is actively subscribed (actions decide who may link which). */
export async function getChannelsByNamesForUser(tx: Tx, realmId: number, userId: number, names: readonly string[]): Promise<Array<ChannelRow & { subscribed: boolean }>> {
  if (names.length === 0) return [];
  const rows = await tx.db
    .selectFrom("channels")
    .leftJoin("subscriptions", (join) =>
      join
        .onRef("subscriptions.recipient_id", "=", "channels.recipient_id")
        .on("subscriptions.user_id", "=", userId)
        .on("subscriptions.active", "=", true),
    )
    .selectAll("channels")
    .select("subscriptions.id as subscription_id")
    .where("channels.realm_id", "=", realmId)
    .where(sql<string>`lower(channels.name)`, "in", names.map((n) => n.toLowerCase()))
    .execute();
  return rows.map(({ subscription_id, ...channel }) => ({ ...(channel as ChannelRow), subscribed: subscription_id !== null }));
}

export async function getRealmEmojiByNames(tx: Tx, realmId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  return tx.db
    .selectFrom("realm_emoji")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("name", "in", names)
    .execute();
}

// Every send and every message fetch reads them (topic links): built once (prepared.ts).
const linkifiersOf = prepared<{ realmId: number }, Selectable<DB["linkifiers"]>>((db, arg) =>
  db.selectFrom("linkifiers").selectAll().where("realm_id", "=", arg("realmId")).orderBy("order").orderBy("id"),
);

export async function getLinkifiers(tx: Tx, realmId: number) {
  return linkifiersOf(tx, { realmId });
}
