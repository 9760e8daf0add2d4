/**
 * Resolving parsed narrow terms (lib/narrow.ts) for one viewer: names and ids become recipients and
 * users, each term becomes a store condition (store/narrow.ts), and the narrow's scope is chosen
 * (zulip-facts section d): the viewer's own history, unless every non-negated channel term names
 * channels whose whole history the viewer may read. A channel the viewer may not see is unknown.
 */
import { accessMessage } from "../../access/messages.js";
import { ApiError } from "../../errors.js";
import { FLAG_BITS } from "../../lib/flags.js";
import { badNarrow, isPersonalTerm, messageIdOperand, namesConversation, type NarrowTerm, type Operand } from "../../lib/narrow.js";
import { parseSearchText, type SearchText } from "../../lib/search-highlight.js";
import { RESOLVED_TOPIC_PREFIX } from "../../lib/topics.js";
import { canReadSharedHistory, canSeeChannelMetadata, type ChannelViewer } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { isGuest } from "../../policy/roles.js";
import { getChannelById, getChannelByName, getRecipientMembers, listChannels } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getDirectGroupRecipientId, getDirectGroupRecipientIdsWithAll } from "../../store/direct-messages.js";
import type { NarrowCond, NarrowQuery } from "../../store/narrow.js";
import { isSubscribed } from "../../store/subscriptions.js";
import { MESSAGE_TYPE, type ChannelRow, type UserRow } from "../../store/types.js";
import { getUserByApiEmail, getUserById, getUsersByIds } from "../../store/users.js";
import { VISIBILITY_POLICY } from "../users/user-topics.js";

export interface ResolvedNarrow {
  /** The terms after `with` was replaced by the conversation it points at. */
  terms: NarrowTerm[];
  cond: NarrowCond;
  /** Where the messages come from: the viewer's rows, or whole channel histories. */
  query: NarrowQuery;
  /** The same conditions over the viewer's rows (for flags such as first unread). */
  rowsQuery: NarrowQuery;
  /** Every non-negated channel term is readable in full (used for explicit message ids too). */
  sharedHistory: boolean;
  /** Recipient of the first non-negated channel term: its own muting doesn't hide its messages. */
  channelRecipientId: number | null;
  search: SearchText | null;
}

interface TermResult {
  cond: NarrowCond;
  /** The condition limits messages to few recipients or one sender: walk messages' indexes. */
  selective?: boolean;
  channel?: { channel: ChannelRow; viewer: ChannelViewer };
  /** For `channels:` terms, whether the viewer may read all of those channels' history. */
  sharedHistory?: boolean;
}

const channelType: NarrowCond = { kind: "type", type: MESSAGE_TYPE.CHANNEL };
const MENTION_FLAGS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

const searchCond = (s: SearchText): NarrowCond => ({ kind: "search", words: s.words, phrases: s.phrases });
const and = (...conds: NarrowCond[]): NarrowCond => ({ kind: "and", conds });
const or = (...conds: NarrowCond[]): NarrowCond => ({ kind: "or", conds });
const not = (cond: NarrowCond): NarrowCond => ({ kind: "not", cond });

/**
 * Messages the viewer's muting hides (in:home leaves them out, is:muted keeps only them): channel
 * messages of a muted channel unless their topic is unmuted or followed, and of muted topics.
 */
export function mutedCond(userId: number, exceptRecipientId: number | null): NarrowCond {
  const mutedChannel: NarrowCond = and(
    { kind: "mutedChannel", userId },
    ...(exceptRecipientId !== null ? [not({ kind: "recipients", ids: [exceptRecipientId] })] : []),
    not({ kind: "topicPolicy", userId, policies: [VISIBILITY_POLICY.UNMUTED, VISIBILITY_POLICY.FOLLOWED] }),
  );
  return and(channelType, or(mutedChannel, { kind: "topicPolicy", userId, policies: [VISIBILITY_POLICY.MUTED] }));
}

class Resolver {
  private membership: Membership | null = null;
  readonly searchTexts: string[] = [];

  constructor(
    private readonly tx: Tx,
    private readonly user: UserRow,
  ) {}

  private async viewer(channel: ChannelRow): Promise<ChannelViewer> {
    this.membership ??= await Membership.load(this.tx, this.user);
    const subscribed = channel.recipient_id !== null && (await isSubscribed(this.tx, this.user.id, channel.recipient_id));
    return { membership: this.membership, subscribed };
  }

  private async channel(operand: Operand): Promise<TermResult> {
    const found =
      typeof operand === "number"
        ? await getChannelById(this.tx, this.user.realm_id, operand)
        : await getChannelByName(this.tx, this.user.realm_id, String(operand));
    const viewer = found ? await this.viewer(found) : null;
    if (!found || !viewer || !canSeeChannelMetadata(viewer, found)) throw badNarrow(`unknown channel ${operand}`);
    return { cond: { kind: "recipients", ids: [found.recipient_id as number] }, selective: true, channel: { channel: found, viewer } };
  }

  private async channels(operand: Operand): Promise<TermResult> {
    const all = await listChannels(this.tx, this.user.realm_id, { includeArchived: true });
    if (operand === "archived") {
      // Feature level 489: the messages the user received in channels since archived, so only
      // their own rows are searched, whatever the channels' history settings.
      return { cond: { kind: "recipients", ids: all.filter((c) => c.deactivated).map((c) => c.recipient_id as number) }, sharedHistory: false };
    }
    const webPublic = operand === "web-public";
    const chosen = all.filter((c) => (webPublic ? c.is_web_public : !c.invite_only && c.history_public_to_subscribers));
    return {
      cond: { kind: "recipients", ids: chosen.map((c) => c.recipient_id as number) },
      sharedHistory: webPublic || !isGuest(this.user),
    };
  }

  /**
   * A user named by id, by API email (never the real address it may hide, as in Zulip's get_user),
   * or as "me"; unknown → BAD_NARROW.
   */
  private async oneUser(operand: Operand): Promise<UserRow> {
    if (operand === "me") return this.user;
    const found =
      typeof operand === "number"
        ? await getUserById(this.tx, this.user.realm_id, operand)
        : await getUserByApiEmail(this.tx, this.user.realm_id, String(operand).trim());
    if (!found) throw badNarrow(`unknown user ${operand}`);
    return found;
  }

  private async dm(operand: Operand): Promise<TermResult> {
    const display = Array.isArray(operand) ? `[${operand.join(", ")}]` : String(operand);
    const byEmail = typeof operand === "string";
    const keys: Array<string | number> = [
      ...new Set<string | number>(byEmail ? operand.split(",").map((e) => e.trim().toLowerCase()).filter((e) => e !== "") : (operand as number[])),
    ];
    if (keys.length === 0) return { cond: { kind: "const", value: false } };
    const found = byEmail
      ? await Promise.all((keys as string[]).map((email) => getUserByApiEmail(this.tx, this.user.realm_id, email)))
      : await getUsersByIds(this.tx, this.user.realm_id, keys as number[]);
    const users = found.filter((u): u is UserRow => u !== undefined);
    if (users.length !== keys.length) throw badNarrow(`unknown user in ${display}`);
    // The conversation's group: the viewer with the named users (only the viewer for dm:me).
    const recipientId = await getDirectGroupRecipientId(this.tx, this.user.realm_id, [this.user.id, ...users.map((u) => u.id)]);
    if (recipientId === undefined) return { cond: { kind: "const", value: false } };
    return { cond: { kind: "recipients", ids: [recipientId] }, selective: true };
  }

  private async dmIncluding(operand: Operand, groupsOnly: boolean): Promise<TermResult> {
    const other = await this.oneUser(operand);
    if (other.id === this.user.id && !groupsOnly) return { cond: { kind: "type", type: MESSAGE_TYPE.DIRECT } };
    // group-pm-with counts only groups of three or more; dm-including the 1:1 conversation too.
    const ids = await getDirectGroupRecipientIdsWithAll(this.tx, [this.user.id, other.id], groupsOnly ? 3 : 1);
    return { cond: { kind: "recipients", ids }, selective: true };
  }

  private isTerm(operand: string): NarrowCond {
    const userId = this.user.id;
    switch (operand) {
      case "dm":
        return { kind: "type", type: MESSAGE_TYPE.DIRECT };
      case "starred":
        return { kind: "flags", mask: FLAG_BITS.starred, set: true };
      case "unread":
        return { kind: "flags", mask: FLAG_BITS.read, set: false };
      case "mentioned":
        return { kind: "flags", mask: MENTION_FLAGS, set: true };
      case "alerted":
        return { kind: "flags", mask: FLAG_BITS.has_alert_word, set: true };
      case "resolved":
        return and(channelType, { kind: "topicPrefix", prefix: RESOLVED_TOPIC_PREFIX });
      case "followed":
        return and(channelType, { kind: "topicPolicy", userId, policies: [VISIBILITY_POLICY.FOLLOWED] });
      default:
        return mutedCond(userId, null);
    }
  }

  async term(t: NarrowTerm): Promise<TermResult> {
    switch (t.operator) {
      case "channel":
        return this.channel(t.operand);
      case "channels":
        return this.channels(t.operand);
      case "topic":
        return { cond: and(channelType, { kind: "topic", topic: String(t.operand) }) };
      case "sender":
        return { cond: { kind: "sender", userId: (await this.oneUser(t.operand)).id }, selective: true };
      case "dm":
        return this.dm(t.operand);
      case "dm-including":
        return this.dmIncluding(t.operand, false);
      case "group-pm-with":
        return this.dmIncluding(t.operand, true);
      case "is":
        return { cond: this.isTerm(String(t.operand)) };
      case "has":
        return { cond: t.operand === "reaction" ? { kind: "reaction" } : { kind: "has", column: `has_${t.operand}` as "has_link" } };
      case "in":
        return { cond: t.operand === "home" ? not(mutedCond(this.user.id, null)) : { kind: "const", value: true } };
      case "id":
        return { cond: { kind: "id", id: t.operand as number } };
      case "mentions":
        return { cond: { kind: "userFlags", userId: (await this.oneUser(t.operand)).id, mask: FLAG_BITS.mentioned } };
      case "near":
        // No filter: the operand only serves as the anchor (actions/messages/fetch-messages.ts).
        return { cond: { kind: "const", value: true } };
      case "search": {
        // Positive searches are matched (and highlighted) as one text; a negated one excludes its own matches.
        if (t.negated) return { cond: searchCond(parseSearchText(String(t.operand))) };
        this.searchTexts.push(String(t.operand));
        return { cond: { kind: "const", value: true } };
      }
      case "with":
        throw new Error("`with` is replaced before terms are resolved");
    }
  }
}

/**
 * `with:<message id>` (zulip-facts section d): the narrow of the conversation that now holds the
 * message; if the viewer can't read it, the term is dropped when the rest names a conversation.
 */
async function replaceWith(tx: Tx, user: UserRow, terms: NarrowTerm[]): Promise<NarrowTerm[]> {
  const withTerm = terms.find((t) => t.operator === "with");
  if (!withTerm) return terms;
  const rest = terms.filter((t) => t !== withTerm);
  const messageId = messageIdOperand(withTerm.operand, "Invalid 'with' operator");
  const accessed = await accessMessage(tx, user, messageId).catch((e: unknown) => {
    if (e instanceof ApiError) return null;
    throw e;
  });
  if (!accessed) {
    if (namesConversation(rest)) return rest;
    throw badNarrow("Invalid 'with' operator");
  }
  const others = rest.filter((t) => !["channel", "topic", "dm"].includes(t.operator));
  const { message, channel } = accessed;
  if (channel) {
    return [
      { operator: "channel", operand: channel.id, negated: false },
      { operator: "topic", operand: message.subject, negated: false },
      ...others,
    ];
  }
  const members = (await getRecipientMembers(tx, [message.recipient_id])).get(message.recipient_id) ?? [];
  return [{ operator: "dm", operand: members, negated: false }, ...others];
}

export async function resolveNarrow(tx: Tx, user: UserRow, parsed: NarrowTerm[]): Promise<ResolvedNarrow> {
  const terms = await replaceWith(tx, user, parsed);
  const resolver = new Resolver(tx, user);
  const conds: NarrowCond[] = [];
  let selective = false;
  let sharedHistory = !terms.some(isPersonalTerm);
  let sawChannelTerm = false;
  let channelRecipientId: number | null = null;
  for (const t of terms) {
    const r = await resolver.term(t);
    conds.push(t.negated ? not(r.cond) : r.cond);
    if (t.negated) continue;
    selective ||= r.selective === true;
    if (r.channel) {
      const { channel, viewer } = r.channel;
      const full = canReadSharedHistory(viewer, channel);
      sharedHistory &&= full;
      channelRecipientId ??= channel.recipient_id;
    }
    if (r.sharedHistory !== undefined) sharedHistory &&= r.sharedHistory;
    sawChannelTerm ||= r.channel !== undefined || r.sharedHistory !== undefined;
  }
  const searchText = resolver.searchTexts.join(" ");
  const search = searchText ? parseSearchText(searchText) : null;
  if (search) conds.push(searchCond(search));
  const cond = and(...conds);
  const rowsQuery: NarrowQuery = { scope: { kind: "rows", userId: user.id }, cond, driveByMessage: selective };
  sharedHistory &&= sawChannelTerm;
  return {
    terms,
    cond,
    query: sharedHistory ? { scope: { kind: "channels" }, cond } : rowsQuery,
    rowsQuery,
    sharedHistory,
    channelRecipientId,
    search,
  };
}
