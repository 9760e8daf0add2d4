/**
 * Autocommit statements to PostgreSQL sent together: every statement issued outside a transaction
 * in one turn of the event loop goes to PostgreSQL in one simple-protocol query (statements joined
 * by ';'), one round trip instead of one per statement.
 *
 * Why: a POST /register runs ~38 independent reads (its sections run at once: events/state), and
 * on a small box each statement costs a write and a read system call at both ends plus a wake-up of
 * a PostgreSQL backend (issue 21: `writev` to PostgreSQL's sockets was 15.6% of a register's busy
 * time at 5,000 users). Reads issued together are now one message each way.
 *
 * How it stays what it was:
 * - Transactions are untouched: a client whose first statement begins one is a pooled connection
 *   of its own until released (Kysely runs BEGIN … COMMIT on the connection it acquired).
 * - Parameters are written into the text as quoted literals. node-postgres sends parameters as text
 *   with no type (OID 0), so PostgreSQL infers each one's type from its context; a quoted literal
 *   is of type unknown and is inferred the same way. The text of each value is the driver's own
 *   (`prepareValue`), quoted by the driver's `escapeLiteral`. Statements whose text cannot be
 *   rewritten safely (comments, backslashes, dollar quotes, binary values) go alone, as before.
 * - Only reads (SELECT) are batched. A batch is one implicit transaction in PostgreSQL: when any
 *   statement in it fails, each is sent again alone, so that each caller gets its own result or
 *   error (one failing read never fails its neighbours) — unless PostgreSQL could not be reached:
 *   then every statement of the batch fails with that error at once (503 to each request), as it
 *   would have alone. Writes outside transactions go alone.
 * - A statement alone in its turn goes as before (extended protocol, parameters apart), and so
 *   does a read marked SENT_ALONE (one that may be slow).
 */
import { sql } from "kysely";
import type pg from "pg";

/**
 * Appended to a read that may take long (a narrow or search over the whole history, an export's
 * batch, a topic list of a big channel): it goes alone, so that the cheap reads issued in the same
 * turn (other requests' authentication) never wait behind it in one batch. PostgreSQL runs a
 * batch's statements one after another; alone, the cheap reads run beside the long one on other
 * connections, as before batching. A comment, so the statement is unchanged on both stores.
 */
export const SENT_ALONE = sql.raw(" /* sent alone: may be slow */");

/** Statements per round trip at most: a turn with more sends several batches. */
const MAX_BATCH_STATEMENTS = 64;
/** Text per round trip at most (long IN lists are arrays already: long-lists.ts). */
const MAX_BATCH_CHARS = 256 * 1024;
/** Released clients kept for reuse: about the statements in flight at once. */
const MAX_IDLE_CLIENTS = 64;
/** Statement texts whose placeholder positions are remembered (the store's texts are few and fixed). */
const TEXT_CACHE_ENTRIES = 4096;

/** The driver's own value conversion (`pg.utils`, not in its type declarations). */
type Driver = Pick<typeof pg, "escapeLiteral"> & { utils?: unknown };
type PrepareValue = (value: unknown) => string | Buffer | null;
type Result = pg.QueryResult;

interface Pending {
  sql: string;
  values: unknown[];
  inlined: string;
  resolve(result: Result): void;
  reject(err: unknown): void;
}

/** Counters for the benchmark and tests: statements sent, and the round trips that carried them. */
export interface BatchStats {
  statements: number;
  roundTrips: number;
  /** Batches that failed as a whole and were sent again one statement at a time. */
  retried: number;
}

const BEGINS_TRANSACTION = /^\s*(begin|start\s+transaction)\b/i;
/** Only reads are batched: a write alone keeps its one try (a batch that fails is sent again). */
const READS = /^\s*select\b/i;

/**
 * The text split at its placeholders ($1, $2…: parts.length = placeholders + 1, with the parameter
 * index before each later part), or null when it holds anything this rewriting does not handle.
 */
interface Template {
  parts: string[];
  indexes: number[];
}

const templates = new Map<string, Template | null>();

export function parseTemplate(sql: string): Template | null {
  const known = templates.get(sql);
  if (known !== undefined) return known;
  const parsed = scan(sql);
  if (templates.size >= TEXT_CACHE_ENTRIES) templates.clear();
  templates.set(sql, parsed);
  return parsed;
}

function scan(sql: string): Template | null {
  if (sql.includes("\\") || sql.includes("--") || sql.includes("/*") || sql.includes(";")) return null;
  const parts: string[] = [];
  const indexes: number[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // Quoted literal or identifier; a doubled quote inside is part of it.
      const end = sql.indexOf(c, i + 1);
      if (end < 0) return null;
      i = end + 1;
      continue;
    }
    if (c === "$") {
      let j = i + 1;
      while (j < sql.length && sql.charCodeAt(j) >= 48 && sql.charCodeAt(j) <= 57) j++;
      if (j === i + 1) return null; // a dollar quote or an identifier with '$'
      parts.push(sql.slice(start, i));
      indexes.push(Number(sql.slice(i + 1, j)) - 1);
      start = i = j;
      continue;
    }
    i++;
  }
  parts.push(sql.slice(start));
  return { parts, indexes };
}

/** `sql` with its parameters written in as literals, or null when it must go with parameters apart. */
export function inlineParameters(driver: Driver, sql: string, values: readonly unknown[]): string | null {
  const template = parseTemplate(sql);
  if (!template) return null;
  let out = template.parts[0];
  for (let k = 0; k < template.indexes.length; k++) {
    const index = template.indexes[k];
    if (index < 0 || index >= values.length) return null;
    const literal = literalOf(driver, values[index]);
    if (literal === null) return null;
    out += literal + template.parts[k + 1];
  }
  return out;
}

function literalOf(driver: Driver, value: unknown): string | null {
  if (value === null || value === undefined) return "NULL";
  if (value instanceof Uint8Array) return null; // sent as binary by the driver
  const text = (driver.utils as { prepareValue: PrepareValue }).prepareValue(value);
  if (typeof text !== "string") return text === null ? "NULL" : null;
  // The simple protocol sends the text NUL-terminated: a NUL inside a value would cut it short.
  // Alone, the value goes apart and PostgreSQL refuses it as it always has.
  if (text.includes("\u0000")) return null;
  return driver.escapeLiteral(text);
}

/**
 * What Kysely's PostgresDialect takes as its pool: `connect()` hands out clients whose autocommit
 * statements are batched per event-loop turn, and which become a pooled connection of their own
 * when their first statement begins a transaction.
 */
export class BatchingPool {
  readonly stats: BatchStats = { statements: 0, roundTrips: 0, retried: 0 };
  private pending: Pending[] = [];
  private scheduled = false;
  /** Released clients, handed out again (Kysely keeps its connection object per client). */
  private readonly idle: BatchingClient[] = [];

  /**
   * `unreachable`: whether an error means PostgreSQL could not be reached or did not answer
   * (db.ts isStoreUnavailable). Such a batch fails as a whole at once: sent again one by one, each
   * statement would wait for the same dead server again.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly driver: Driver,
    private readonly unreachable: (err: unknown) => boolean = () => false,
  ) {}

  connect(): Promise<BatchingClient> {
    const client = this.idle.pop() ?? new BatchingClient(this, this.pool, this.idle);
    client.lent = true;
    return Promise.resolve(client);
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  /** One autocommit statement, sent with the others of this turn. */
  query(sql: string, values: unknown[]): Promise<Result> {
    const inlined = READS.test(sql) ? inlineParameters(this.driver, sql, values) : null;
    if (inlined === null) return this.alone(sql, values);
    return new Promise((resolve, reject) => {
      this.pending.push({ sql, values, inlined, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private alone(sql: string, values: unknown[]): Promise<Result> {
    this.stats.statements++;
    this.stats.roundTrips++;
    return this.pool.query(sql, values);
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = [];
    this.scheduled = false;
    let batch: Pending[] = [];
    let chars = 0;
    for (const p of pending) {
      if (batch.length > 0 && (batch.length >= MAX_BATCH_STATEMENTS || chars + p.inlined.length > MAX_BATCH_CHARS)) {
        void this.send(batch);
        batch = [];
        chars = 0;
      }
      batch.push(p);
      chars += p.inlined.length + 2;
    }
    if (batch.length > 0) void this.send(batch);
  }

  private async send(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [p] = batch;
      this.alone(p.sql, p.values).then(p.resolve, p.reject);
      return;
    }
    this.stats.statements += batch.length;
    this.stats.roundTrips++;
    let results: Result[];
    try {
      // Two or more statements in one simple query: the driver answers with one result each.
      results = (await this.pool.query(batch.map((p) => p.inlined).join(";\n"))) as unknown as Result[];
    } catch (err) {
      if (this.unreachable(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // Nothing of the batch took effect (one implicit transaction): each statement again alone.
      this.stats.retried++;
      for (const p of batch) this.alone(p.sql, p.values).then(p.resolve, p.reject);
      return;
    }
    batch.forEach((p, k) => p.resolve(results[k]));
  }
}

/** One Kysely connection: batched autocommit statements, or a transaction's own pooled connection. */
class BatchingClient {
  private own: pg.PoolClient | null = null;
  /** Handed out by connect() and not yet released: never in the idle list twice. */
  lent = false;

  constructor(
    private readonly batches: BatchingPool,
    private readonly pool: pg.Pool,
    private readonly idle: BatchingClient[],
  ) {}

  async query(sql: string, values: unknown[] = []): Promise<Result> {
    if (this.own) return this.own.query(sql, values);
    if (BEGINS_TRANSACTION.test(sql)) {
      this.own = await this.pool.connect();
      return this.own.query(sql, values);
    }
    return this.batches.query(sql, values);
  }

  release(err?: Error | boolean): void {
    const own = this.own;
    this.own = null;
    own?.release(err);
    if (!this.lent) return;
    this.lent = false;
    if (this.idle.length < MAX_IDLE_CLIENTS) this.idle.push(this);
  }
}
