/**
 * SQL for digest emails (migration 0020; actions/notifications/digest.ts): which period of a realm
 * was queued, who may get one, and what a digest shows (recent channel traffic a user can read, new
 * channels). The emails themselves wait in pending_notifications (kind "digest") like the other
 * notifications, and are leased and sent by the same worker.
 */
import type { Tx } from "./db.js";
import { SENT_ALONE } from "./pg-statement-batches.js";

/**
 * Marks the realm's digest period as queued; true for the one caller that marked it (the insert
 * waits on a concurrent transaction inserting the same key, then finds it: at most one queues).
 */
export async function claimDigestRun(tx: Tx, realmId: number, period: number, now: number): Promise<boolean> {
  const rows = await tx.db
    .insertInto("digest_runs")
    .values({ realm_id: realmId, period, created_at: now })
    .onConflict((oc) => oc.columns(["realm_id", "period"]).doNothing())
    .returning("realm_id")
    .execute();
  return rows.length > 0;
}

/** Active human users of the realm (with their settings), the digest's candidates. */
export async function listDigestCandidates(tx: Tx, realmId: number) {
  return tx.db
    .selectFrom("users")
    .select(["id", "settings"])
    .where("realm_id", "=", realmId)
    .where("is_active", "=", true)
    .where("is_bot", "=", false)
    .orderBy("id")
    .execute();
}

/** Users among `userIds` sent a digest since `since` (the audit log's digest entries, as Zulip's). */
export async function usersWithDigestSince(tx: Tx, realmId: number, userIds: readonly number[], since: number): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await tx.db
    .selectFrom("audit_log")
    .select("modified_user_id")
    .distinct()
    .where("realm_id", "=", realmId)
    .where("event_type", "=", DIGEST_AUDIT_EVENT)
    .where("event_time", ">", since)
    .where("modified_user_id", "in", [...userIds])
    .execute();
  return new Set(rows.map((r) => Number(r.modified_user_id)));
}

/** Zulip's RealmAuditLog.USER_DIGEST_EMAIL_CREATED, by name. */
export const DIGEST_AUDIT_EVENT = "user_digest_email_created";

/** The channels whose traffic a user's digest shows: subscribed, active, not muted. */
export async function getDigestChannels(tx: Tx, userId: number) {
  return tx.db
    .selectFrom("subscriptions as s")
    .innerJoin("channels as c", "c.recipient_id", "s.recipient_id")
    .select(["c.id", "c.name", "c.recipient_id", "c.history_public_to_subscribers"])
    .where("s.user_id", "=", userId)
    .where("s.active", "=", true)
    .where("s.is_muted", "=", false)
    .where("c.deactivated", "=", false)
    .execute();
}

export interface DigestMessageRow {
  id: number;
  recipient_id: number;
  subject: string;
  sender_id: number;
  rendered_content: string;
}

/**
 * The newest `limit` messages sent after `since` in these channels that the user can read: every
 * message of a channel whose history subscribers see, only their own copies elsewhere. Oldest first.
 */
export async function getDigestMessages(
  tx: Tx,
  userId: number,
  channels: ReadonlyArray<{ recipient_id: number | null; history_public_to_subscribers: boolean }>,
  since: number,
  limit: number,
): Promise<DigestMessageRow[]> {
  const open = channels.filter((c) => c.history_public_to_subscribers && c.recipient_id !== null).map((c) => c.recipient_id as number);
  const closed = channels.filter((c) => !c.history_public_to_subscribers && c.recipient_id !== null).map((c) => c.recipient_id as number);
  if (open.length === 0 && closed.length === 0) return [];
  const rows = await tx.db
    .selectFrom("messages as m")
    .select(["m.id", "m.recipient_id", "m.subject", "m.sender_id", "m.rendered_content"])
    .where("m.date_sent", ">", since)
    .where((eb) => {
      const either = [];
      if (open.length > 0) either.push(eb("m.recipient_id", "in", open));
      if (closed.length > 0) {
        either.push(
          eb.and([
            eb("m.recipient_id", "in", closed),
            eb.exists(eb.selectFrom("user_messages as um").select("um.message_id").whereRef("um.message_id", "=", "m.id").where("um.user_id", "=", userId)),
          ]),
        );
      }
      return eb.or(either);
    })
    .orderBy("m.id", "desc")
    .limit(limit)
    .modifyEnd(SENT_ALONE)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) })).reverse();
}

/** Channels of the realm created after `since`, not archived (the digest's "new channels"). */
export async function getChannelsCreatedSince(tx: Tx, realmId: number, since: number) {
  return tx.db
    .selectFrom("channels")
    .select(["id", "name", "invite_only", "is_web_public"])
    .where("realm_id", "=", realmId)
    .where("deactivated", "=", false)
    .where("date_created", ">", since)
    .orderBy("id")
    .execute();
}
