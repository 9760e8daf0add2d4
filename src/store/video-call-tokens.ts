/** SQL for users' OAuth tokens with video call providers (migration 0019). */
import type { Tx } from "./db.js";

/** The user's token with this provider, as stored (JSON text), or null. */
export async function getVideoCallToken(tx: Tx, userId: number, provider: string): Promise<string | null> {
  const row = await tx.db.selectFrom("video_call_tokens").select("token").where("user_id", "=", userId).where("provider", "=", provider).executeTakeFirst();
  return row?.token ?? null;
}

/** Stores (replacing) or, with null, forgets the user's token with this provider. */
export async function setVideoCallToken(tx: Tx, userId: number, provider: string, token: string | null): Promise<void> {
  await tx.db.deleteFrom("video_call_tokens").where("user_id", "=", userId).where("provider", "=", provider).execute();
  if (token !== null) await tx.db.insertInto("video_call_tokens").values({ user_id: userId, provider, token }).execute();
}
