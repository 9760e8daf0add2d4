/**
 * GET /users/me's answer (Zulip's get-own-user): the caller's user object with max_message_id and
 * profile_data. It is the API's most frequent call after GET /events (every client polls it), and
 * between two changes to the store it is the same text each time: on SQLite the finished JSON is
 * kept per user under the change stamp the request's authentication was checked at
 * (store/change-stamp.ts), so while nothing has changed a call costs the authentication and one
 * map look-up (issue 21 item 2). Any committed change anywhere moves the stamp and the next call
 * builds the answer again; PostgreSQL builds it every time (no stamp).
 */
import type { AppDeps } from "../../deps.js";
import { serializeOwnUser } from "../../present/answer-serializers.js";
import { JsonMembers } from "../../lib/json-text.js";
import { presentUser } from "../../present/present-user.js";
import { StampMemo, type ChangeStamp } from "../../store/change-stamp.js";
import { readTx } from "../../store/db.js";
import { getMaxMessageId, getProfileData } from "../../store/profile.js";
import type { UserRow } from "../../store/types.js";

/** Answers by user id and gravatar setting (two keys per user at most). */
const answers = new StampMemo<number, JsonMembers>();

/** The answer object, as JSON.stringify or the compiled serialiser writes it. */
export async function ownUserAnswer(deps: AppDeps, user: UserRow, stamp?: ChangeStamp | null): Promise<Record<string, unknown>> {
  const tx = readTx(deps.store);
  const presented = presentUser(user, { gravatar: deps.config.enableGravatar, clientGravatar: false, viewerSeesEmail: true });
  delete presented.bot_type;
  delete presented.bot_owner_id;
  delete presented.is_imported_stub;
  return {
    ...presented,
    max_message_id: await getMaxMessageId(tx, user.id, stamp),
    profile_data: await getProfileData(tx, user.id, stamp),
  };
}

/** `stamp`: the one the request's authentication rows were checked at (UserContext.stamp). */
export function ownUserMembers(deps: AppDeps, user: UserRow, stamp?: ChangeStamp | null): Promise<JsonMembers> {
  const gravatar = deps.config.enableGravatar;
  return answers.get(readTx(deps.store), user.id * 2 + (gravatar ? 1 : 0), async () => JsonMembers.of(serializeOwnUser(await ownUserAnswer(deps, user, stamp))), stamp);
}
