/** Rows grouped under a key, each group in the rows' order; one pass, no copying per row. */
export function groupBy<T, K, V = T>(rows: Iterable<T>, key: (row: T) => K, value: (row: T) => V = (row) => row as unknown as V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(value(row));
    else out.set(k, [value(row)]);
  }
  return out;
}
