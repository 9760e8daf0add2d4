/**
 * The batches of one table's rows an export writes (docs/EXPORT-FORMAT.md), each at most
 * EXPORT_BATCH_ROWS rows, in the table's keyset order. Most tables are read by keyset on their
 * order columns. Tables marked `byMessage` (messages, and user_messages with several rows per
 * message keyed by message and user) are read window by window of exported message ids: each
 * window's rows come through the message id's index and only they are sorted, so a batch costs a
 * bounded index range scan instead of rerunning the exported-messages subquery and sorting the
 * whole table (30,000 messages / 240,000 rows stalled the event loop for seconds per batch).
 */
import { readTx, type Store } from "../../store/db.js";
import { readExportedMessageIds, readRowBatch, type Row } from "../../store/realm-export-rows.js";
import { exportCondition, messageWindowCondition, type ExportTable, type ScopeContext } from "../../store/realm-export-tables.js";
import { EXPORT_BATCH_ROWS } from "./archive-format.js";

/** Messages in the first window; later windows are sized from the rows per message seen so far. */
const FIRST_WINDOW_MESSAGES = 100;

async function* keysetBatches(store: Store, table: ExportTable, condition: Parameters<typeof readRowBatch>[2]): AsyncGenerator<Row[]> {
  let after: unknown[] | null = null;
  for (;;) {
    const rows = await readRowBatch(readTx(store), table, condition, after, EXPORT_BATCH_ROWS);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_BATCH_ROWS) return;
    const last: Row = rows[rows.length - 1];
    after = table.order.map((c) => last[c]);
  }
}

/**
 * Windows of exported message ids, in increasing order, so the rows come out in (message_id, …)
 * order as the plain keyset would give them. A window holds about EXPORT_BATCH_ROWS rows (its size
 * follows the rows per message of the previous window); a window with more rows (a message to a
 * huge channel) is itself read in keyset batches.
 */
async function* messageWindowBatches(store: Store, table: ExportTable, scope: ScopeContext): AsyncGenerator<Row[]> {
  if (table.owner && scope.privateUserIds.length === 0) return;
  let windowSize = FIRST_WINDOW_MESSAGES;
  let afterMessage = 0;
  for (;;) {
    const messageIds = await readExportedMessageIds(readTx(store), scope, afterMessage, windowSize);
    if (messageIds.length === 0) return;
    let rowsInWindow = 0;
    for await (const rows of keysetBatches(store, table, messageWindowCondition(table, scope, messageIds))) {
      rowsInWindow += rows.length;
      yield rows;
    }
    if (messageIds.length < windowSize) return;
    afterMessage = messageIds[messageIds.length - 1];
    const fitting = Math.floor((messageIds.length * EXPORT_BATCH_ROWS) / Math.max(rowsInWindow, 1));
    windowSize = Math.min(Math.max(fitting, 1), EXPORT_BATCH_ROWS);
  }
}

/** One table's rows for this export, batch by batch. */
export function tableBatches(store: Store, table: ExportTable, scope: ScopeContext): AsyncGenerator<Row[]> {
  return table.byMessage ? messageWindowBatches(store, table, scope) : keysetBatches(store, table, exportCondition(table, scope));
}
