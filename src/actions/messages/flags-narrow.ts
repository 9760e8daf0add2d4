/**
 * POST /messages/flags/narrow (Zulip's update-message-flags-for-narrow): the same anchor and
 * window as GET /messages select up to 5000 messages, then one flag is added to or removed from
 * them through doUpdateMessageFlags (historical rows, events), all in one transaction.
 */
import type { AppDeps } from "../../deps.js";
import { parseAnchor } from "../../lib/anchor.js";
import type { NarrowTerm } from "../../lib/narrow.js";
import { transaction } from "../../store/db.js";
import type { UserRow } from "../../store/types.js";
import { anchorExcludedInside, MAX_MESSAGES_PER_FETCH, messageIdsMatchingNarrow } from "./fetch-messages.js";
import { checkFlagChange, doUpdateMessageFlags } from "./flags.js";

export interface FlagsForNarrowInput {
  anchor: string;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  op: string;
  flag: string;
}

/**
 * A larger window is clamped rather than refused: num_before keeps at least half the budget when
 * num_after asks for more, and num_after gets what is left.
 */
export function clampWindow(numBefore: number, numAfter: number): { numBefore: number; numAfter: number } {
  const before = Math.min(numBefore, Math.max(MAX_MESSAGES_PER_FETCH - numAfter, MAX_MESSAGES_PER_FETCH / 2));
  return { numBefore: before, numAfter: Math.min(numAfter, MAX_MESSAGES_PER_FETCH - before) };
}

export async function checkUpdateFlagsForNarrow(deps: AppDeps, user: UserRow, input: FlagsForNarrowInput): Promise<Record<string, unknown>> {
  const { flag, op } = checkFlagChange(input.flag, input.op);
  if (input.numBefore > 0 && input.numAfter > 0 && !input.includeAnchor) throw anchorExcludedInside();
  const anchor = parseAnchor(input.anchor, undefined);
  const range = { anchor, includeAnchor: input.includeAnchor, ...clampWindow(input.numBefore, input.numAfter) };
  return transaction(deps.store, async (tx) => {
    const w = await messageIdsMatchingNarrow(tx, user, input.narrow, range);
    const result = await doUpdateMessageFlags(deps, tx, user, op, flag, w.ids);
    return {
      processed_count: w.ids.length,
      updated_count: result.changed.length,
      first_processed_id: w.ids[0] ?? null,
      last_processed_id: w.ids.at(-1) ?? null,
      found_oldest: w.foundOldest,
      found_newest: w.foundNewest,
      ignored_because_not_subscribed_channels: result.ignoredChannelIds,
    };
  });
}
