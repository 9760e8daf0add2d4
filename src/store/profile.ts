/** SQL for custom profile field values and small per-user aggregates. */
import { StampMemo, type ChangeStamp } from "./change-stamp.js";
import type { Tx } from "./db.js";
import { prepared } from "./prepared.js";

// Both run on every GET /users/me and register: built once (prepared.ts).
const profileValuesOf = prepared<{ userId: number }, { field_id: number; value: string; rendered_value: string | null }>((db, arg) =>
  db.selectFrom("custom_profile_field_values").select(["field_id", "value", "rendered_value"]).where("user_id", "=", arg("userId")),
);
const maxMessageIdOf = prepared<{ userId: number }, { max_id: number | null }>((db, arg) =>
  db
    .selectFrom("user_messages")
    .select((eb) => eb.fn.max("message_id").as("max_id"))
    .where("user_id", "=", arg("userId")),
);

type ProfileData = Record<string, { value: string; rendered_value?: string }>;

// GET /users/me reads both for every call: on SQLite, read again only once something has changed.
const profileMemo = new StampMemo<number, Readonly<ProfileData>>();
const maxIdMemo = new StampMemo<number, number>();

/** `{field_id: {value, rendered_value?}}` for one user (spec section 2, profile_data); shared, not to be changed. */
export function getProfileData(tx: Tx, userId: number, stamp?: ChangeStamp | null): Promise<Readonly<ProfileData>> {
  return profileMemo.get(tx, userId, () => readProfileData(tx, userId), stamp);
}

async function readProfileData(tx: Tx, userId: number): Promise<ProfileData> {
  const rows = await profileValuesOf(tx, { userId });
  const out: ProfileData = {};
  for (const r of rows) {
    out[String(r.field_id)] = r.rendered_value === null ? { value: r.value } : { value: r.value, rendered_value: r.rendered_value };
  }
  return out;
}

/** Highest message id the user has received, or -1 (Zulip's max_message_id). */
export function getMaxMessageId(tx: Tx, userId: number, stamp?: ChangeStamp | null): Promise<number> {
  return maxIdMemo.get(tx, userId, async () => {
    const [row] = await maxMessageIdOf(tx, { userId });
    return row?.max_id == null ? -1 : Number(row.max_id);
  }, stamp);
}
