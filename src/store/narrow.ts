/**
 * SQL for narrows: a condition tree (built from resolved narrow terms by actions/messages/narrow-terms.ts)
 * over a base scope, cut around an anchor with ORDER BY id … LIMIT n. Queries are written so the
 * planner can walk an index in id order: messages(recipient_id, id), (recipient_id, lower(subject),
 * id), (sender_id, id), or the user's user_messages primary key (user_id, message_id).
 */
import { sql, type RawBuilder } from "kysely";
import type { Tx } from "./db.js";
import { SENT_ALONE } from "./pg-statement-batches.js";

/** A filter over one message `m` (and, in the "rows" scope, the viewer's row `um`). */
export type NarrowCond =
  | { kind: "const"; value: boolean }
  | { kind: "and" | "or"; conds: readonly NarrowCond[] }
  | { kind: "not"; cond: NarrowCond }
  | { kind: "recipients"; ids: readonly number[] }
  | { kind: "type"; type: number }
  | { kind: "topic"; topic: string }
  | { kind: "topicPrefix"; prefix: string }
  | { kind: "sender"; userId: number }
  | { kind: "id"; id: number }
  /** Some of `mask` is set (or, with set=false, all of it is clear) in the viewer's flags ("rows" scope only). */
  | { kind: "flags"; mask: number; set: boolean }
  /** Some of `mask` is set in `userId`'s flags for the message. */
  | { kind: "userFlags"; userId: number; mask: number }
  | { kind: "has"; column: "has_attachment" | "has_image" | "has_link" }
  | { kind: "reaction" }
  /** `userId` gave the message's channel topic one of these visibility policies. */
  | { kind: "topicPolicy"; userId: number; policies: readonly number[] }
  /** `userId` has muted the message's channel. */
  | { kind: "mutedChannel"; userId: number }
  /** Full-text match of every word and phrase (already free of query syntax). */
  | { kind: "search"; words: readonly string[]; phrases: readonly string[] };

/**
 * Which messages a narrow may return before its conditions apply:
 * - "rows": those the user has a user_messages row for (their personal history);
 * - "channels": any message; a condition limits it to channels whose history the user may read;
 * - "visible": rows, plus any message of the listed channels (used for explicit message ids).
 */
export type NarrowScope =
  | { kind: "rows"; userId: number }
  | { kind: "channels" }
  | { kind: "visible"; userId: number; realmId: number; recipientIds: readonly number[] };

export interface NarrowQuery {
  scope: NarrowScope;
  cond: NarrowCond;
  /**
   * For the "rows" scope: walk messages by an index of `m` (a channel, conversation or sender
   * narrow) rather than the user's whole history. SQLite is told the join order with CROSS JOIN;
   * PostgreSQL picks its own from statistics.
   */
  driveByMessage?: boolean;
}

const TRUE = sql<boolean>`1 = 1`;
const FALSE = sql<boolean>`1 = 0`;

function list(ids: readonly number[]): RawBuilder<unknown> {
  return sql.join(ids.map((id) => sql`${id}`));
}

/** FTS5 query: each word and phrase as a quoted string (query syntax can't leak in), ANDed. */
function fts5Query(words: readonly string[], phrases: readonly string[]): string {
  return [...words, ...phrases].map((w) => `"${w.replaceAll('"', '""')}"`).join(" ");
}

function searchCond(tx: Tx, words: readonly string[], phrases: readonly string[]): RawBuilder<boolean> {
  if (words.length + phrases.length === 0) return FALSE;
  if (tx.dialect === "sqlite") {
    return sql<boolean>`m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${fts5Query(words, phrases)})`;
  }
  const parts = [
    ...(words.length ? [sql`plainto_tsquery('english', ${words.join(" ")})`] : []),
    ...phrases.map((p) => sql`phraseto_tsquery('english', ${p})`),
  ];
  return sql<boolean>`m.search_tsv @@ (${sql.join(parts, sql` && `)})`;
}

function toSql(tx: Tx, c: NarrowCond, idCol: RawBuilder<number>): RawBuilder<boolean> {
  switch (c.kind) {
    case "const":
      return c.value ? TRUE : FALSE;
    case "and":
    case "or":
      if (c.conds.length === 0) return c.kind === "and" ? TRUE : FALSE;
      return sql<boolean>`(${sql.join(c.conds.map((x) => toSql(tx, x, idCol)), c.kind === "and" ? sql` AND ` : sql` OR `)})`;
    case "not":
      return sql<boolean>`NOT (${toSql(tx, c.cond, idCol)})`;
    case "recipients":
      if (c.ids.length === 0) return FALSE;
      return c.ids.length === 1 ? sql<boolean>`m.recipient_id = ${c.ids[0]}` : sql<boolean>`m.recipient_id IN (${list(c.ids)})`;
    case "type":
      return sql<boolean>`m.type = ${c.type}`;
    case "topic":
      // lower() on both sides, as the (recipient_id, lower(subject), id) index is built.
      return sql<boolean>`lower(m.subject) = lower(${c.topic})`;
    case "topicPrefix":
      return sql<boolean>`substr(m.subject, 1, ${[...c.prefix].length}) = ${c.prefix}`;
    case "sender":
      return sql<boolean>`m.sender_id = ${c.userId}`;
    case "id":
      return sql<boolean>`${idCol} = ${c.id}`;
    case "flags":
      // A literal mask, so `(flags & 1) = 0` can match the user_messages_unread partial index.
      return c.set ? sql<boolean>`(um.flags & ${sql.lit(c.mask)}) != 0` : sql<boolean>`(um.flags & ${sql.lit(c.mask)}) = 0`;
    case "userFlags":
      return sql<boolean>`EXISTS (SELECT 1 FROM user_messages uf WHERE uf.user_id = ${c.userId} AND uf.message_id = m.id AND (uf.flags & ${c.mask}) != 0)`;
    case "has":
      return sql<boolean>`m.${sql.ref(c.column)} = ${true}`;
    case "reaction":
      return sql<boolean>`EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)`;
    case "topicPolicy":
      return sql<boolean>`EXISTS (SELECT 1 FROM user_topics ut JOIN channels c ON c.id = ut.channel_id
        WHERE ut.user_id = ${c.userId} AND c.recipient_id = m.recipient_id
          AND lower(ut.topic_name) = lower(m.subject) AND ut.visibility_policy IN (${list(c.policies)}))`;
    case "mutedChannel":
      return sql<boolean>`EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = ${c.userId}
        AND s.recipient_id = m.recipient_id AND s.active = ${true} AND s.is_muted = ${true})`;
    case "search":
      return searchCond(tx, c.words, c.phrases);
  }
}

interface Compiled {
  from: RawBuilder<unknown>;
  idCol: RawBuilder<number>;
  where: RawBuilder<boolean>;
}

function compile(tx: Tx, q: NarrowQuery): Compiled {
  const scope = q.scope;
  let from: RawBuilder<unknown>;
  let idCol: RawBuilder<number>;
  let base: RawBuilder<boolean>;
  if (scope.kind === "rows") {
    if (q.driveByMessage) {
      idCol = sql<number>`m.id`;
      from = tx.dialect === "sqlite" ? sql`messages m CROSS JOIN user_messages um` : sql`messages m JOIN user_messages um ON um.message_id = m.id`;
      base = sql<boolean>`um.user_id = ${scope.userId} AND um.message_id = m.id`;
    } else {
      idCol = sql<number>`um.message_id`;
      from = sql`user_messages um JOIN messages m ON m.id = um.message_id`;
      base = sql<boolean>`um.user_id = ${scope.userId}`;
    }
  } else {
    idCol = sql<number>`m.id`;
    from = sql`messages m`;
    base =
      scope.kind === "channels"
        ? TRUE
        : sql<boolean>`m.realm_id = ${scope.realmId} AND (${toSql(tx, { kind: "recipients", ids: scope.recipientIds }, idCol)}
            OR EXISTS (SELECT 1 FROM user_messages uv WHERE uv.user_id = ${scope.userId} AND uv.message_id = m.id))`;
  }
  return { from, idCol, where: sql<boolean>`${base} AND ${toSql(tx, q.cond, idCol)}` };
}

export interface IdWindow {
  /** Only ids ≥ this. */
  min?: number;
  /** Only ids ≤ this. */
  max?: number;
  /** Only messages sent at or after this time (seconds). */
  sentSince?: number;
  order: "asc" | "desc";
  limit: number;
}

function windowSql(tx: Tx, q: NarrowQuery, w: IdWindow): RawBuilder<{ id: number }> {
  const { from, idCol, where } = compile(tx, q);
  const bounds = [
    ...(w.min !== undefined ? [sql`${idCol} >= ${w.min}`] : []),
    ...(w.max !== undefined ? [sql`${idCol} <= ${w.max}`] : []),
    ...(w.sentSince !== undefined ? [sql`m.date_sent >= ${w.sentSince}`] : []),
  ];
  const extra = bounds.length ? sql` AND ${sql.join(bounds, sql` AND `)}` : sql``;
  const order = w.order === "asc" ? sql`ASC` : sql`DESC`;
  return sql<{ id: number }>`SELECT ${idCol} AS id FROM ${from} WHERE ${where}${extra} ORDER BY ${idCol} ${order} LIMIT ${w.limit}${SENT_ALONE}`;
}

/** Matching message ids inside the window, in the window's order. */
export async function narrowIds(tx: Tx, q: NarrowQuery, w: IdWindow): Promise<number[]> {
  if (w.limit <= 0) return [];
  const rows = await windowSql(tx, q, w).execute(tx.db);
  return rows.rows.map((r) => Number(r.id));
}

/** The subset of `ids` that matches, ascending. */
export async function narrowIdsAmong(tx: Tx, q: NarrowQuery, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { from, idCol, where } = compile(tx, q);
  const rows = await sql<{ id: number }>`SELECT ${idCol} AS id FROM ${from} WHERE ${where} AND ${idCol} IN (${list([...new Set(ids)])}) ORDER BY ${idCol}${SENT_ALONE}`.execute(tx.db);
  return rows.rows.map((r) => Number(r.id));
}

/** The query plan of a narrow window, one line per plan row (for the index tests). */
export async function explainNarrow(tx: Tx, q: NarrowQuery, w: IdWindow): Promise<string[]> {
  const body = windowSql(tx, q, w);
  if (tx.dialect === "sqlite") {
    const rows = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${body}`.execute(tx.db);
    return rows.rows.map((r) => r.detail);
  }
  const rows = await sql<{ "QUERY PLAN": string }>`EXPLAIN ${body}`.execute(tx.db);
  return rows.rows.map((r) => r["QUERY PLAN"]);
}
