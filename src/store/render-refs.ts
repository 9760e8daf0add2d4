/** Lookups the Markdown renderer needs for one message: only the rows its source refers to. */
import { sql, type Selectable } from "kysely";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";
import type { DB } from "./schema.js";

export async function getUsersForMentions(tx: Tx, realmId: number, names: readonly string[], ids: readonly number[]) {
  if (names.length === 0 && ids.length === 0) return [];
  return tx.db
    .selectFrom("users")
    .select(["id", "full_name", "email", "is_active"])
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

/** Channels by name that a user may link to: public ones, and private ones they are subscribed to. */
export async function getLinkableChannelsByNames(tx: Tx, realmId: number, userId: number, names: readonly string[]) {
  if (names.length === 0) return [];
  return tx.db
    .selectFrom("channels")
    .leftJoin("subscriptions", (join) =>
      join
        .onRef("subscriptions.recipient_id", "=", "channels.recipient_id")
        .on("subscriptions.user_id", "=", userId)
        .on("subscriptions.active", "=", true),
    )
    .select(["channels.id", "channels.name"])
    .where("channels.realm_id", "=", realmId)
    .where(sql<string>`lower(channels.name)`, "in", names.map((n) => n.toLowerCase()))
    .where((eb) => eb.or([eb("channels.invite_only", "=", false), eb("subscriptions.id", "is not", null)]))
    .execute();
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
