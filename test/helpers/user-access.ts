/**
 * A realm where polonius (the guest) is limited by can_access_all_users_group, in the manner of
 * Zulip's set_up_db_for_testing_user_access: what the guest shares with whom is known, so every
 * surface can be checked against it.
 *
 * - "guest-public": hamlet and polonius; othello posted there, then left.
 * - "guest-private" (invite-only): iago and polonius.
 * - polonius wrote shiva a 1:1 direct message; desdemona wrote polonius and shiva together.
 * So polonius may access hamlet, iago, shiva, desdemona and every bot, but not othello nor cordelia.
 */
import assert from "node:assert/strict";
import type { TestRealm, UserName } from "./fixtures.js";
import { systemGroupId } from "./channels.js";
import { createChannel, sendDm, sendToChannel } from "./messages.js";

export const ACCESSIBLE: readonly UserName[] = ["polonius", "hamlet", "iago", "shiva", "desdemona", "bot"];
export const INACCESSIBLE: readonly UserName[] = ["othello", "cordelia"];

export interface LimitedGuestWorld {
  publicId: number;
  privateId: number;
  /** othello's message in guest-public, sent before he left it. */
  othelloMessageId: number;
}

/** Points can_access_all_users_group at role:members (limited) or role:everyone, through PATCH /realm. */
export async function setAccessAllUsersGroup(t: TestRealm, group: "role:members" | "role:everyone"): Promise<void> {
  const res = await t.as("desdemona").patch("/realm", { can_access_all_users_group: { new: await systemGroupId(t, group) } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

export async function setUpLimitedGuest(t: TestRealm): Promise<LimitedGuestWorld> {
  const publicId = await createChannel(t, "guest-public", ["othello"]);
  const othelloMessageId = await sendToChannel(t, "othello", "guest-public", "intro", "hello from othello");
  assert.equal((await t.as("othello").delete("/users/me/subscriptions", { subscriptions: ["guest-public"] })).status, 200);
  const joined = await t.as("iago").post("/users/me/subscriptions", {
    subscriptions: [{ name: "guest-public" }],
    principals: [t.users.polonius.id, t.users.hamlet.id],
  });
  assert.equal(joined.status, 200, JSON.stringify(joined.body));
  const privateId = await createChannel(t, "guest-private", ["iago", "polonius"], { invite_only: true });
  await sendDm(t, "polonius", ["shiva"], "hello shiva");
  await sendDm(t, "desdemona", ["polonius", "shiva"], "hello both");
  await setAccessAllUsersGroup(t, "role:members");
  return { publicId, privateId, othelloMessageId };
}

export const ids = (t: TestRealm, names: readonly UserName[]) => names.map((n) => t.users[n].id).sort((a, b) => a - b);
