/**
 * Fetching messages by narrow (spec 4.8): the anchor, the window of num_before/num_after ids
 * around it (one ORDER BY id DESC LIMIT query below it, one ASC query from it), the found_* flags,
 * history_limited, and explicit message_ids. `messageIdsMatchingNarrow` is shared with
 * POST /messages/flags/narrow.
 */
import { ApiError, missingParam } from "../../errors.js";
import { NEWEST_ANCHOR, parseAnchor, type Anchor } from "../../lib/anchor.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { isDmNarrow, isPersonalTerm, type NarrowTerm } from "../../lib/narrow.js";
import { canReadSharedHistory } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { listChannels } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getMessagesByIds, getUserMessageFlags } from "../../store/messages.js";
import { narrowIds, narrowIdsAmong, type NarrowQuery } from "../../store/narrow.js";
import { getUserChannelSubscriptions } from "../../store/subscriptions.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { presentSearchResults } from "./message-search.js";
import type { ViewOptions } from "./message-views.js";
import { mutedCond, resolveNarrow, type ResolvedNarrow } from "./narrow-terms.js";

export const MAX_MESSAGES_PER_FETCH = 5000;

export interface RangeRequest {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
}

export interface NarrowWindow {
  /** Ascending. */
  ids: number[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  resolved: ResolvedNarrow;
}

export const tooMany = () => new ApiError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
export const anchorExcludedInside = () => new ApiError("The anchor can only be excluded at an end of the range");

/** The oldest unread matching message (muted conversations aside, except in DM narrows), else newest. */
async function firstUnreadAnchor(tx: Tx, user: UserRow, r: ResolvedNarrow): Promise<number> {
  const unread = { kind: "flags", mask: FLAG_BITS.read, set: false } as const;
  const muting = isDmNarrow(r.terms) ? [] : [{ kind: "not" as const, cond: mutedCond(user.id, r.channelRecipientId) }];
  const q: NarrowQuery = { scope: r.rowsQuery.scope, cond: { kind: "and", conds: [r.cond, unread, ...muting] } };
  const [first] = await narrowIds(tx, q, { order: "asc", limit: 1 });
  return first ?? NEWEST_ANCHOR;
}

/**
 * The first matching message sent at or after the date; when none was, the "newest" anchor
 * itself (spec 4.8), so the window is the latest `num_before` messages with found_newest, exactly
 * as `anchor=newest` answers, rather than a window around the last message.
 */
async function dateAnchor(tx: Tx, r: ResolvedNarrow, since: number): Promise<number> {
  const [first] = await narrowIds(tx, r.query, { sentSince: since, order: "asc", limit: 1 });
  return first ?? NEWEST_ANCHOR;
}

/** Whether messages of a protected-history channel matching the narrow lie below `below`. */
interface WindowSpec {
  anchor: number;
  include: boolean;
  numBefore: number;
  numAfter: number;
  /** The anchor is "oldest" (0) or "newest": nothing lies beyond it on that side. */
  toLeft: boolean;
  toRight: boolean;
}

/**
 * The rows around the anchor, ascending: below it ORDER BY id DESC LIMIT num_before, from it ORDER
 * BY id ASC LIMIT num_after + 1 (the anchor row rides along with whichever side is fetched).
 */
async function windowRows(tx: Tx, q: NarrowQuery, w: WindowSpec): Promise<number[]> {
  const { anchor, include, numBefore, numAfter, toLeft, toRight } = w;
  const needBefore = !toLeft && numBefore > 0;
  const needAfter = !toRight && numAfter > 0;
  let below: number[] = [];
  let above: number[] = [];
  if (needBefore && needAfter) {
    below = await narrowIds(tx, q, { max: anchor - 1, order: "desc", limit: numBefore });
    above = await narrowIds(tx, q, { min: anchor, order: "asc", limit: numAfter + 1 });
  } else if (needBefore) {
    const withAnchor = include && !toRight ? 1 : 0;
    below = await narrowIds(tx, q, { max: toRight ? undefined : anchor - (include ? 0 : 1), order: "desc", limit: numBefore + withAnchor });
  } else if (needAfter) {
    above = await narrowIds(tx, q, { min: anchor + (include ? 0 : 1), order: "asc", limit: numAfter + (include ? 1 : 0) });
  } else if (include && !toLeft && !toRight) {
    above = await narrowIds(tx, q, { min: anchor, max: anchor, order: "asc", limit: 1 });
  }
  return [...below.reverse(), ...above];
}

/** The matching ids around an anchor, with Zulip's found_* flags (zerver/lib/narrow.py semantics). */
export async function messageIdsMatchingNarrow(tx: Tx, user: UserRow, narrow: NarrowTerm[], range: RangeRequest): Promise<NarrowWindow> {
  const r = await resolveNarrow(tx, user, narrow);
  let anchor: number;
  if (range.anchor.type === "id") anchor = range.anchor.id;
  else if (range.anchor.type === "first_unread") anchor = await firstUnreadAnchor(tx, user, r);
  else anchor = await dateAnchor(tx, r, range.anchor.since);
  const toLeft = anchor === 0;
  const toRight = anchor >= NEWEST_ANCHOR;
  const numBefore = range.numBefore;
  const numAfter = toRight ? 0 : range.numAfter;
  const rows = await windowRows(tx, r.query, { anchor, include: range.includeAnchor, numBefore, numAfter, toLeft, toRight });
  const older = rows.filter((id) => toRight || id < anchor);
  const beforeIds = numBefore > 0 ? older.slice(-numBefore) : older;
  const anchorIds = toRight ? [] : rows.filter((id) => id === anchor);
  const newer = toRight ? [] : rows.filter((id) => id > anchor);
  const afterIds = numAfter > 0 ? newer.slice(0, numAfter) : newer;
  const ids = [...beforeIds, ...anchorIds, ...afterIds];
  const foundOldest = toLeft || beforeIds.length < numBefore;
  const foundNewest = toRight || afterIds.length < numAfter;
  return { ids, anchor, foundAnchor: anchorIds.length === 1, foundOldest, foundNewest, resolved: r };
}

/** Recipients of every channel whose whole history the user may read. */
async function sharedHistoryRecipientIds(tx: Tx, user: UserRow): Promise<number[]> {
  const [channels, subs, membership] = await Promise.all([
    listChannels(tx, user.realm_id, { includeArchived: true }),
    getUserChannelSubscriptions(tx, user.id),
    Membership.load(tx, user),
  ]);
  const subscribed = new Set(subs.map((s) => s.recipient_id));
  return channels
    .filter((c) => canReadSharedHistory({ membership, subscribed: subscribed.has(c.recipient_id as number) }, c))
    .map((c) => c.recipient_id as number);
}

/** Explicit message_ids: the ones that exist, may be read, and match the narrow. */
async function idsAmong(tx: Tx, user: UserRow, narrow: NarrowTerm[], messageIds: number[]): Promise<{ ids: number[]; resolved: ResolvedNarrow }> {
  const r = await resolveNarrow(tx, user, narrow);
  const query: NarrowQuery =
    r.sharedHistory || r.terms.some(isPersonalTerm)
      ? r.query
      : { scope: { kind: "visible", userId: user.id, realmId: user.realm_id, recipientIds: await sharedHistoryRecipientIds(tx, user) }, cond: r.cond };
  return { ids: await narrowIdsAmong(tx, query, messageIds), resolved: r };
}

export interface GetMessagesInput extends ViewOptions {
  narrow: NarrowTerm[];
  anchor?: string;
  anchorDate?: string;
  includeAnchor?: boolean;
  numBefore?: number;
  numAfter?: number;
  messageIds?: number[];
  useFirstUnreadAnchor?: boolean;
}

/** Checks the parameter combinations (before any query) and returns the range to fetch, if any. */
export function checkFetchRange(input: GetMessagesInput, near: () => number | null): RangeRequest | null {
  if (input.messageIds !== undefined) {
    const given = [input.numBefore, input.numAfter, input.anchor, input.includeAnchor, input.useFirstUnreadAnchor];
    if (given.some((v) => v !== undefined)) {
      throw new ApiError(
        "Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor",
        "BAD_REQUEST",
        400,
        { parameters: "num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor" },
      );
    }
    if (input.messageIds.length > MAX_MESSAGES_PER_FETCH) throw tooMany();
    return null;
  }
  if (input.numBefore === undefined) throw missingParam("num_before");
  if (input.numAfter === undefined) throw missingParam("num_after");
  if (input.numBefore + input.numAfter > MAX_MESSAGES_PER_FETCH) throw tooMany();
  const includeAnchor = input.includeAnchor ?? true;
  if (input.numBefore > 0 && input.numAfter > 0 && !includeAnchor) throw anchorExcludedInside();
  let anchor: Anchor;
  // Zulip's parse_anchor_value: the legacy flag wins and `anchor` is then ignored, whatever it
  // says (zulip-terminal sends anchor=0 with it on every first fetch).
  if (input.useFirstUnreadAnchor) anchor = { type: "first_unread" };
  else if (input.anchor !== undefined) anchor = parseAnchor(input.anchor, input.anchorDate);
  else {
    const nearId = near();
    if (nearId === null) throw missingParam("anchor");
    anchor = { type: "id", id: nearId };
  }
  return { anchor, includeAnchor, numBefore: input.numBefore, numAfter: input.numAfter };
}

/** GET /messages. */
export async function getMessages(tx: Tx, realm: RealmRow, user: UserRow, input: GetMessagesInput): Promise<Record<string, unknown>> {
  const nearTerm = input.narrow.find((t) => t.operator === "near" && !t.negated && /^\d+$/.test(String(t.operand)));
  const range = checkFetchRange(input, () => (nearTerm ? Number(nearTerm.operand) : null));
  const view: ViewOptions = {
    applyMarkdown: input.applyMarkdown,
    gravatar: input.gravatar,
    clientGravatar: input.clientGravatar,
    allowEmptyTopicName: input.allowEmptyTopicName,
    viewer: input.viewer,
  };
  if (range === null) {
    const { ids, resolved } = await idsAmong(tx, user, input.narrow, input.messageIds as number[]);
    const messages = await present(tx, realm, user, ids, resolved, view);
    return { messages, found_anchor: false, found_oldest: false, found_newest: false, history_limited: false };
  }
  const w = await messageIdsMatchingNarrow(tx, user, input.narrow, range);
  return {
    messages: await present(tx, realm, user, w.ids, w.resolved, view),
    anchor: w.anchor,
    found_anchor: w.foundAnchor,
    found_oldest: w.foundOldest,
    found_newest: w.foundNewest,
    // Zulip sets it only when a plan's message-history limit (first_visible_message_id) hid older
    // messages, and Parley has none. Telling a late joiner of a protected channel whether hidden
    // history matches a search would answer questions about messages they may not read (issue 16, F5).
    history_limited: false,
  };
}

async function present(tx: Tx, realm: RealmRow, user: UserRow, ids: number[], r: ResolvedNarrow, view: ViewOptions) {
  const [messages, flags] = await Promise.all([getMessagesByIds(tx, ids), getUserMessageFlags(tx, user.id, ids)]);
  return presentSearchResults(tx, realm, messages, flags, r.search, view);
}
