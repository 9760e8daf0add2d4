/**
 * Prometheus metrics of one process (issue 18, item 3), kept by prom-client in a registry of this
 * app's own. Everything is counted in memory as it happens or read from in-memory state when
 * scraped (queue counts, the pool's occupancy, the bus's state), so a scrape never waits on the
 * store or Redis. Each process is scraped on its own port: see README "Production".
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AppDeps } from "../deps.js";
import type { ChatEvent } from "../events/bus.js";
import { PARLEY_VERSION } from "../version.js";

/** Request durations: API calls take milliseconds, long-polls up to the heartbeat (~50 s). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Publication → queue: microseconds in one process, a Redis round trip across processes. */
const DELIVERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly durations: Histogram<"method" | "route" | "status">;
  private readonly delivery: Histogram;
  private readonly writeTurnWait: Histogram;
  /**
   * The counter and histogram children of each (method, route, status) seen: prom-client hashes
   * and validates a label object on every inc/observe, a few µs per request (issue 21); a child
   * bound once skips both. Bounded by the routes × methods × statuses the app can answer.
   */
  private readonly children = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<"method" | "route" | "status"> }>();

  /** `processMetrics`: also Node's own (CPU, memory, event-loop lag, GC); the server turns it on. */
  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({ name: "parley_http_requests_total", help: "HTTP requests answered, by method, route pattern and status.", labelNames: ["method", "route", "status"], registers });
    this.durations = new Histogram({
      name: "parley_http_request_duration_seconds",
      help: "Time from a request's arrival to its response, by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.delivery = new Histogram({
      name: "parley_message_delivery_seconds",
      help: "Time from a message event's publication (its transaction committed) to its arrival in this process's event queues.",
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.writeTurnWait = new Histogram({
      name: "parley_sqlite_write_turn_wait_seconds",
      help: "Cluster workers on SQLite: how long a transaction waited for its turn to write (cluster/write-gate.ts).",
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    new Gauge({ name: "parley_build_info", help: "Parley's version (always 1).", labelNames: ["version"], registers }).set({ version: PARLEY_VERSION }, 1);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { count: this.requests.labels(labels), duration: this.durations.labels(labels) };
      this.children.set(key, child);
    }
    child.count.inc();
    child.duration.observe(seconds);
  }

  observeDelivery(event: ChatEvent, latencyMs: number): void {
    if (event.type === "message") this.delivery.observe(Math.max(0, latencyMs) / 1000);
  }

  observeWriteTurnWait(seconds: number): void {
    this.writeTurnWait.observe(seconds);
  }

  /** Gauges read from the app's state when scraped. */
  watch(deps: AppDeps): void {
    const registers = [this.registry];
    new Gauge({ name: "parley_event_queues", help: "Event queues held by this process.", registers, collect() {
      this.set(deps.queues.size);
    } });
    new Gauge({ name: "parley_long_polls_parked", help: "GET /events requests waiting for an event right now.", registers, collect() {
      this.set(deps.queues.parkedCount());
    } });
    new Gauge({ name: "parley_event_bus_up", help: "1 while events are promised to reach their queues (always, without Redis), 0 during a Redis outage.", registers, collect() {
      this.set(deps.events.unavailable?.() ? 0 : 1);
    } });
    const poolStats = deps.store.poolStats;
    if (poolStats) {
      new Gauge({ name: "parley_store_pool_connections", help: "PostgreSQL pool: open, idle and maximum connections.", labelNames: ["state"], registers, collect() {
        const s = poolStats();
        this.set({ state: "open" }, s.total);
        this.set({ state: "idle" }, s.idle);
        this.set({ state: "max" }, s.max);
      } });
      new Gauge({ name: "parley_store_pool_waiting", help: "Queries waiting for a PostgreSQL connection.", registers, collect() {
        this.set(poolStats().waiting);
      } });
    }
    const batchStats = deps.store.batchStats;
    if (batchStats) {
      // Counters kept by the store (store/pg-statement-batches.ts), read at scrape time.
      new Counter({ name: "parley_store_autocommit_total", help: "PostgreSQL statements sent outside transactions, the round trips that carried them (reads issued together share one), and batches sent again one by one after a failure.", labelNames: ["kind"], registers, collect() {
        const s = batchStats();
        this.reset();
        this.inc({ kind: "statements" }, s.statements);
        this.inc({ kind: "round_trips" }, s.roundTrips);
        this.inc({ kind: "batches_retried" }, s.retried);
      } });
    }
  }
}
