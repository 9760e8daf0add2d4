/**
 * SQL for invitations: email invitations (one address, used once) and reusable invitation links
 * (is_multiuse), both in `invitations`, and the count of invitation emails sent (audit log rows)
 * behind the realm's daily cap.
 */
import type { Insertable, Selectable } from "kysely";
import { sql } from "kysely";
import type { Tx } from "./db.js";
import type { DB } from "./schema.js";

export type InvitationRow = Selectable<DB["invitations"]>;
export type NewInvitation = Insertable<DB["invitations"]>;

/** Values of invitations.status (migration 0003). */
export const INVITE_STATUS = { ACTIVE: 0, USED: 1, REVOKED: 2 } as const;

/** Audit-log event written for every invitation email sent, including resends. */
export const INVITE_EMAIL_SENT = "invitation_email_sent";

export async function insertInvitation(tx: Tx, row: NewInvitation): Promise<InvitationRow> {
  return tx.db.insertInto("invitations").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function getInvitationById(tx: Tx, realmId: number, id: number): Promise<InvitationRow | undefined> {
  return tx.db.selectFrom("invitations").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

export async function getInvitationByKey(tx: Tx, key: string): Promise<InvitationRow | undefined> {
  return tx.db.selectFrom("invitations").selectAll().where("confirmation_key", "=", key).executeTakeFirst();
}

/** Active, unexpired invitations of the realm (only those `referrerId` made, when given), oldest first. */
export async function listPendingInvitations(tx: Tx, realmId: number, now: number, referrerId?: number): Promise<InvitationRow[]> {
  let query = tx.db
    .selectFrom("invitations")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("status", "=", INVITE_STATUS.ACTIVE)
    .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">=", now)]));
  if (referrerId !== undefined) query = query.where("referred_by_id", "=", referrerId);
  return query.orderBy("id").execute();
}

export async function setInvitationStatus(tx: Tx, id: number, status: number): Promise<void> {
  await tx.db.updateTable("invitations").set({ status }).where("id", "=", id).execute();
}

/**
 * Marks an active email invitation used; false when it no longer was active (a concurrent
 * acceptance won), so one invitation never creates two accounts.
 */
export async function claimInvitation(tx: Tx, id: number): Promise<boolean> {
  const result = await tx.db
    .updateTable("invitations")
    .set({ status: INVITE_STATUS.USED })
    .where("id", "=", id)
    .where("status", "=", INVITE_STATUS.ACTIVE)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes the other pending email invitations to an address that now has an account. */
export async function revokeInvitationsForEmail(tx: Tx, realmId: number, email: string): Promise<void> {
  await tx.db
    .updateTable("invitations")
    .set({ status: INVITE_STATUS.REVOKED })
    .where("realm_id", "=", realmId)
    .where("status", "=", INVITE_STATUS.ACTIVE)
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .execute();
}

/** Invitation emails the realm sent since `since` (UTC seconds). */
export async function countInvitationEmailsSince(tx: Tx, realmId: number, since: number): Promise<number> {
  const row = await tx.db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("event_type", "=", INVITE_EMAIL_SENT)
    .where("event_time", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
