/**
 * Mute and follow settings travel with a topic that moves whole (Zulip's rule for update-message):
 * each user's policy for the old topic is cleared and carried to the new one. If the destination
 * already had messages, the two policies merge and the more visible one wins (followed, then
 * unmuted, then inherit, then muted). Users who lost access to the moved messages only lose their
 * policy. Each change reaches the user's clients as a user_topic event.
 */
import type { AppDeps } from "../../deps.js";
import type { Tx } from "../../store/db.js";
import { getTopicMessages, getTopicPolicies } from "../../store/edits.js";
import type { RealmRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import type { MovePlan, MoveResult } from "./move-messages.js";
import { doSetUserTopicVisibility, VISIBILITY_POLICY } from "../users/user-topics.js";

const { INHERIT, MUTED, UNMUTED, FOLLOWED } = VISIBILITY_POLICY;
/** Least visible first. */
const BY_VISIBILITY: readonly number[] = [MUTED, INHERIT, UNMUTED, FOLLOWED];

const moreVisible = (a: number, b: number) => (BY_VISIBILITY.indexOf(a) >= BY_VISIBILITY.indexOf(b) ? a : b);

export async function carryTopicPolicies(deps: AppDeps, tx: Tx, realm: RealmRow, plan: MovePlan, result: MoveResult): Promise<void> {
  const sameTopic = plan.orig.id === plan.target.id && plan.origTopic.toLowerCase() === plan.targetTopic.toLowerCase();
  if (!result.movedAll || sameTopic) return;
  const [from, to] = await Promise.all([getTopicPolicies(tx, plan.orig.id, plan.origTopic), getTopicPolicies(tx, plan.target.id, plan.targetTopic)]);
  if (from.size === 0 && to.size === 0) return;
  const movedIds = new Set(result.moved.map((m) => m.id));
  const destinationHadMessages = (await getTopicMessages(tx, plan.target.recipient_id as number, plan.targetTopic)).some((m) => !movedIds.has(m.id));
  const lost = new Set(result.lostAccess);
  for (const user of await getUsersByIds(tx, realm.id, [...new Set([...from.keys(), ...to.keys()])])) {
    const carried = from.get(user.id) ?? INHERIT;
    const existing = to.get(user.id) ?? INHERIT;
    if (carried !== INHERIT) await doSetUserTopicVisibility(deps, tx, user, plan.orig, plan.origTopic, INHERIT);
    if (lost.has(user.id)) continue;
    const merged = destinationHadMessages ? moreVisible(carried, existing) : carried;
    if (merged !== existing) await doSetUserTopicVisibility(deps, tx, user, plan.target, plan.targetTopic, merged);
  }
}
