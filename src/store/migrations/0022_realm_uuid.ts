/**
 * Every realm gets a stable UUID (Zulip's Realm.uuid, sent as register's realm_uuid since FL 466),
 * kept in realms.settings under "uuid". Realms created from now on get theirs at creation
 * (actions/realm/realms.ts); this gives one to each realm that has none.
 */
import { randomUUID } from "node:crypto";
import type { Migration } from "./helpers.js";

export const realmUuid: Migration = {
  async up(db) {
    const realms = (await db.selectFrom("realms").select(["id", "settings"]).execute()) as { id: number; settings: string | null }[];
    for (const realm of realms) {
      const settings = JSON.parse(realm.settings ?? "{}") as Record<string, unknown>;
      if (typeof settings.uuid === "string") continue;
      settings.uuid = randomUUID();
      await db.updateTable("realms").set({ settings: JSON.stringify(settings) }).where("id", "=", realm.id).execute();
    }
  },
};
