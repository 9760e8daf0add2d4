/**
 * Long id or row lists go to the database in slices: SQLite refuses a statement with more than
 * 32 766 bound parameters and PostgreSQL one with more than 65 535, and a client may send lists
 * of tens of thousands of items (found by fuzzing, issue 9).
 */

/** Items per statement: well under both limits even for rows of several columns. */
export const BATCH_SIZE = 2000;

export function inBatches<T>(items: readonly T[], size = BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
