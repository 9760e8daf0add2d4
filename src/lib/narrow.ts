/**
 * Narrows (zulip-facts section d): a JSON list of filter terms, each `{operator, operand,
 * negated?}` or a legacy `[operator, operand]` pair. This module only parses and validates: legacy
 * names become their current ones, operands get their types, fixed-vocabulary operands are checked,
 * and combinations no message can satisfy are refused. Names and ids are resolved by the actions.
 * Every error is 400 BAD_NARROW "Invalid narrow operator: {desc}" (with `desc` in the body).
 */
import { ApiError } from "../errors.js";
import { parseSearchText } from "./search-highlight.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "./topics.js";

export type NarrowOperator =
  | "channel"
  | "channels"
  | "topic"
  | "sender"
  | "dm"
  | "dm-including"
  | "group-pm-with"
  | "is"
  | "has"
  | "in"
  | "id"
  | "with"
  | "near"
  | "search"
  | "mentions";

export type Operand = string | number | number[];

export interface NarrowTerm {
  operator: NarrowOperator;
  operand: Operand;
  negated: boolean;
}

/** Zulip's highest possible message id (Message.MAX_POSSIBLE_MESSAGE_ID, a PostgreSQL int4). */
export const MAX_MESSAGE_ID = 2147483647;

export const IS_OPERANDS = ["dm", "starred", "unread", "mentioned", "alerted", "followed", "muted", "resolved"] as const;
export const HAS_OPERANDS = ["attachment", "image", "link", "reaction"] as const;
export type IsOperand = (typeof IS_OPERANDS)[number];
export type HasOperand = (typeof HAS_OPERANDS)[number];

/**
 * Bounds on the work one narrow can ask for (issue 16, F2 and F13): each term is a condition in
 * the query (1,000 negated topics overflowed SQLite's expression depth and PostgreSQL's stack),
 * and each search word a full-text term (50,000 words took 6 s of SQLite's single connection).
 * Zulip sets none; no client sends anywhere near these.
 */
export const MAX_NARROW_TERMS = 100;
export const MAX_SEARCH_WORDS = 100;
export const MAX_DM_OPERAND_USERS = 1_000;
export const MAX_OPERAND_LENGTH = 10_000;

export const badNarrow = (desc: string) => new ApiError(`Invalid narrow operator: ${desc}`, "BAD_NARROW", 400, { desc });

export const badNarrowCombination = (desc: string) =>
  new ApiError(`Invalid narrow operator combination: ${desc}`, "BAD_NARROW", 400, { desc });

/** Legacy operator names and the operator they now mean. */
const LEGACY_OPERATORS: Record<string, NarrowOperator> = {
  stream: "channel",
  streams: "channels",
  "pm-with": "dm",
  pm_with: "dm",
  group_pm_with: "group-pm-with",
};

const OPERATORS: ReadonlySet<string> = new Set<NarrowOperator>([
  "channel", "channels", "topic", "sender", "dm", "dm-including", "group-pm-with",
  "is", "has", "in", "id", "with", "near", "search", "mentions",
]);

/** Operators whose operand may be an id (zulip-facts section d, "Operand typing"). */
const ID_OPERATORS: ReadonlySet<string> = new Set(["channel", "id", "sender", "group-pm-with", "dm-including", "mentions", "with"]);

function checkOperand(operator: string, operand: unknown): Operand {
  const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
  if (typeof operand === "string" && operand.length > MAX_OPERAND_LENGTH) throw badNarrow(`operand is longer than ${MAX_OPERAND_LENGTH} characters`);
  if (ID_OPERATORS.has(operator)) {
    if (typeof operand === "string" || isInt(operand)) return operand;
    throw badNarrow("operand is not a string or integer");
  }
  if (operator === "dm") {
    if (Array.isArray(operand) && operand.length > MAX_DM_OPERAND_USERS) throw badNarrow(`dm operand lists more than ${MAX_DM_OPERAND_USERS} users`);
    if (typeof operand === "string" || (Array.isArray(operand) && operand.every(isInt))) return operand as Operand;
    throw badNarrow("operand is not a string or an integer list");
  }
  if (typeof operand !== "string") throw badNarrow("operand is not a string");
  if (operator === "search" && operand.trim() === "") throw badNarrow("operand cannot be blank.");
  if (operator === "search") {
    const { words, phrases } = parseSearchText(operand);
    if (words.length + phrases.length > MAX_SEARCH_WORDS) throw badNarrow(`search operand has more than ${MAX_SEARCH_WORDS} words`);
  }
  return operand;
}

/** One raw term → operator (canonical name), typed operand, negation. */
function parseTerm(raw: unknown): NarrowTerm {
  let operator: unknown;
  let operand: unknown;
  let negated: unknown = false;
  if (Array.isArray(raw)) {
    if (raw.length !== 2 || raw.some((x) => typeof x !== "string")) throw badNarrow("element is not a string pair");
    [operator, operand] = raw;
  } else if (typeof raw === "object" && raw !== null) {
    const dict = raw as Record<string, unknown>;
    if (dict.operand === undefined || dict.operand === null) throw badNarrow("operand is missing");
    if (dict.operator === undefined || dict.operator === null) throw badNarrow("operator is missing");
    ({ operator, operand } = dict);
    negated = dict.negated ?? false;
  } else {
    throw badNarrow("dict or list required");
  }
  if (typeof operator !== "string") throw badNarrow("operator is not a string");
  if (typeof negated !== "boolean") throw badNarrow("negated is not a boolean");
  const name = LEGACY_OPERATORS[operator] ?? operator;
  const typed = checkOperand(name, operand);
  if (!OPERATORS.has(name)) throw badNarrow(`unknown operator ${operator}`);
  return { operator: name as NarrowOperator, operand: typed, negated };
}

/** Checks the fixed-vocabulary operands and normalises them (legacy `is:private`, the empty topic). */
function normaliseTerm(term: NarrowTerm): NarrowTerm {
  const operand = term.operand;
  switch (term.operator) {
    case "is": {
      const value = operand === "private" ? "dm" : operand;
      if (!(IS_OPERANDS as readonly unknown[]).includes(value)) throw badNarrow(`unknown 'is' operand ${operand}`);
      return { ...term, operand: value };
    }
    case "has":
      if (!(HAS_OPERANDS as readonly unknown[]).includes(operand)) throw badNarrow(`unknown 'has' operand ${operand}`);
      return term;
    case "in":
      if (operand !== "home" && operand !== "all") throw badNarrow(`unknown 'in' operand ${operand}`);
      return term;
    case "channels":
      // `archived` since feature level 489.
      if (operand !== "public" && operand !== "web-public" && operand !== "archived") throw badNarrow(`unknown channels operand ${operand}`);
      return term;
    case "topic":
      // Clients that hide the empty topic show it as its display name, and send that back.
      return operand === EMPTY_TOPIC_DISPLAY_NAME ? { ...term, operand: "" } : term;
    case "id":
      return { ...term, operand: messageIdOperand(operand, "Invalid message ID") };
    default:
      return term;
  }
}

/** A message id given as an integer or a string of digits. */
export function messageIdOperand(operand: Operand, error: string): number {
  const text = String(operand);
  if (!/^\d+$/.test(text) || Number(text) > MAX_MESSAGE_ID) throw badNarrow(error);
  return Number(text);
}

function isChannelTerm(t: NarrowTerm): boolean {
  if (t.operator === "is" && t.operand === "dm") return t.negated;
  return !t.negated && (t.operator === "channel" || t.operator === "channels" || t.operator === "topic");
}

function isDmTerm(t: NarrowTerm): boolean {
  if (t.negated) return false;
  return (t.operator === "is" && t.operand === "dm") || ["dm", "dm-including", "group-pm-with"].includes(t.operator);
}

/** A term that restricts to a personal property (flags, topic policies): no shared history. */
export function isPersonalTerm(t: NarrowTerm): boolean {
  return t.operator === "is" && t.operand !== "resolved";
}

export function isDmNarrow(terms: readonly NarrowTerm[]): boolean {
  return terms.some(isDmTerm);
}

/**
 * Parses a decoded `narrow` parameter. A non-negated channel-type term next to a non-negated
 * direct-message term can match nothing and is refused, as are repeated `with` terms.
 */
export function parseNarrow(raw: unknown): NarrowTerm[] {
  if (!Array.isArray(raw)) throw badNarrow("narrow is not a list");
  if (raw.length > MAX_NARROW_TERMS) throw badNarrow(`narrow has more than ${MAX_NARROW_TERMS} terms`);
  const terms = raw.map((item) => normaliseTerm(parseTerm(item)));
  if (terms.some(isChannelTerm) && terms.some(isDmTerm)) {
    throw badNarrow("No message can be both a channel message and direct message");
  }
  if (terms.filter((t) => t.operator === "with").length > 1) throw badNarrowCombination("Duplicate 'with' operators.");
  return terms;
}

/**
 * Whether the terms name one conversation (a dm, or a channel and a topic): a `with` term whose
 * message is missing or hidden is then dropped instead of refused.
 */
export function namesConversation(terms: readonly NarrowTerm[]): boolean {
  const has = (op: NarrowOperator) => terms.some((t) => t.operator === op && !t.negated);
  return has("dm") || (has("channel") && has("topic"));
}
