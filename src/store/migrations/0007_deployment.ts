/**
 * One random id per deployment (every process on one database shares it). Processes name their
 * Redis channels and rate-limit keys with it, so two deployments that share a Redis server never
 * receive each other's events (user ids collide across databases) or share counters.
 */
import { randomUUID } from "node:crypto";
import type { Migration } from "./helpers.js";

export const deployment: Migration = {
  async up(db) {
    await db.schema.createTable("deployment").addColumn("id", "text", (c) => c.primaryKey()).execute();
    await db.insertInto("deployment").values({ id: randomUUID() }).execute();
  },
};
