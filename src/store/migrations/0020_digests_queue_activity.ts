/**
 * Issue 19, the rest of notifications when you are away:
 *
 * - `digest_runs`: one row per realm and digest period (the UTC day number of the realm's digest
 *   day), written in the transaction that queues that period's digest emails as pending
 *   notifications (kind "digest"). Its primary key is what makes a period's digests queued once,
 *   whichever process looks first and however often (Zulip's enqueue_emails runs once a day from
 *   cron; here every process looks, so the store decides).
 * - `user_message_queues`: until when a user may hold an event queue taking `message` events on
 *   some process (its last poll plus its idle timeout), written by the process holding it, at most
 *   once a minute per user, so that every process sees every queue when it decides whether a
 *   recipient is idle (Zulip's receiver_is_off_zulip, which its single event server answers alone).
 */
import type { Migration } from "./helpers.js";

export const digestsQueueActivity: Migration = {
  async up(db) {
    await db.schema
      .createTable("digest_runs")
      .addColumn("realm_id", "integer", (c) => c.notNull())
      .addColumn("period", "integer", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("digest_runs_pk", ["realm_id", "period"])
      .execute();
    await db.schema
      .createTable("user_message_queues")
      .addColumn("user_id", "integer", (c) => c.primaryKey())
      .addColumn("until", "bigint", (c) => c.notNull())
      .execute();
  },
};
