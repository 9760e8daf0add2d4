/**
 * role:fullmembers follows the realm's waiting period (zulip-facts section g): a member (role 400)
 * belongs once their account is at least waiting_period_threshold days old. Zulip refreshes this
 * daily and whenever the threshold changes; this does the latter, with user_group events.
 */
import type { AppDeps } from "../../deps.js";
import { ROLE } from "../../policy/roles.js";
import type { Tx } from "../../store/db.js";
import { addGroupMembers, getGroupMemberIds, getSystemGroupByName, removeGroupMembers } from "../../store/groups.js";
import type { RealmRow } from "../../store/types.js";
import { listUsers } from "../../store/users.js";
import { publishGroupEvent } from "../groups/user-groups.js";

const DAY = 86400;

export async function doSyncFullMembers(deps: AppDeps, tx: Tx, realm: RealmRow): Promise<void> {
  const group = await getSystemGroupByName(tx, realm.id, "role:fullmembers");
  const now = deps.clock.now();
  const should = new Set(
    (await listUsers(tx, realm.id)).filter((u) => u.role === ROLE.MEMBER && now - u.date_joined >= realm.waiting_period_threshold * DAY).map((u) => u.id),
  );
  const current = new Set(await getGroupMemberIds(tx, [group.id]));
  const added = [...should].filter((id) => !current.has(id)).sort((a, b) => a - b);
  const removed = [...current].filter((id) => !should.has(id)).sort((a, b) => a - b);
  if (added.length > 0) {
    await addGroupMembers(tx, group.id, added);
    await publishGroupEvent(deps, tx, realm.id, { op: "add_members", group_id: group.id, user_ids: added });
  }
  if (removed.length > 0) {
    await removeGroupMembers(tx, group.id, removed);
    await publishGroupEvent(deps, tx, realm.id, { op: "remove_members", group_id: group.id, user_ids: removed });
  }
}
