/** The deployment's id (migration 0007): shared by every process on this database. */
import type { Tx } from "./db.js";

export async function getDeploymentId(tx: Tx): Promise<string> {
  const row = await tx.db.selectFrom("deployment").select("id").executeTakeFirstOrThrow();
  return row.id;
}
