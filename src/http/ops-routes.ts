/**
 * The operator's endpoints (issue 18, item 3), outside /api/v1 and its rate limits:
 * - `GET /health`: 200 when the store answers and, with REDIS_URL, Redis does; 503 naming the
 *   failing part otherwise. Checks are bounded (HEALTH_CHECK_TIMEOUT_MS) and shared: however many
 *   probes arrive, at most one check runs at a time and its answer serves a second's worth of them,
 *   so the endpoint can neither stall nor load the server.
 * - `GET /metrics`: Prometheus text (http/metrics.ts). With METRICS_TOKEN set it needs
 *   `Authorization: Bearer <token>`; without, it answers only connections from this machine that
 *   did not come through a proxy (no X-Forwarded-For), i.e. a local Prometheus scraping each
 *   process directly, never a visitor through nginx.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { pingStore } from "../store/db.js";
import { PARLEY_VERSION } from "../version.js";
import type { Metrics } from "./metrics.js";
import { noteErrorCode } from "./request-log.js";
import { errorBody } from "./respond.js";

const HEALTH_CHECK_TIMEOUT_MS = 2_000;
const HEALTH_CACHE_MS = 1_000;

interface Health {
  ok: boolean;
  checks: Record<string, string>;
}

async function check(what: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      what(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_CHECK_TIMEOUT_MS} ms`)), HEALTH_CHECK_TIMEOUT_MS);
      }),
    ]);
    return "ok";
  } catch (err) {
    return (err as Error).message || "failed";
  } finally {
    clearTimeout(timer);
  }
}

async function checkHealth(deps: AppDeps): Promise<Health> {
  const bus = deps.events;
  const [database, redis] = await Promise.all([
    check(() => pingStore(deps.store, HEALTH_CHECK_TIMEOUT_MS)),
    deps.config.redisUrl && bus.ping ? check(() => bus.ping!()) : Promise.resolve(null),
  ]);
  const checks: Record<string, string> = { database };
  if (redis !== null) checks.redis = redis;
  return { ok: Object.values(checks).every((c) => c === "ok"), checks };
}

/** One check in flight at most, its answer reused for HEALTH_CACHE_MS. */
function sharedHealth(deps: AppDeps): () => Promise<Health> {
  let last: { at: number; health: Promise<Health> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > HEALTH_CACHE_MS) last = { at: now, health: checkHealth(deps) };
    return last.health;
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function mayScrape(deps: AppDeps, request: FastifyRequest): boolean {
  const token = deps.config.metricsToken;
  if (token) {
    const given = Buffer.from((request.headers.authorization ?? "").replace(/^Bearer /i, ""));
    const wanted = Buffer.from(token);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  return LOOPBACK.test(request.socket.remoteAddress ?? "") && request.headers["x-forwarded-for"] === undefined;
}

export function registerOpsRoutes(app: FastifyInstance, deps: AppDeps, metrics: Metrics): void {
  const health = sharedHealth(deps);
  app.get("/health", async (request, reply) => {
    const { ok, checks } = await health();
    reply.header("Cache-Control", "no-store");
    if (ok) return reply.send({ result: "success", msg: "", status: "ok", version: PARLEY_VERSION, checks });
    const failing = Object.keys(checks).filter((name) => checks[name] !== "ok");
    const msg = `Unhealthy: ${failing.map((name) => `${name}: ${checks[name]}`).join("; ")}`;
    noteErrorCode(request, "BAD_REQUEST");
    return reply.code(503).send({ ...errorBody(new ApiError(msg, "BAD_REQUEST", 503)), status: "unavailable", version: PARLEY_VERSION, failing, checks });
  });

  app.get("/metrics", async (request, reply) => {
    if (!mayScrape(deps, request)) {
      const msg = deps.config.metricsToken ? "Invalid metrics token" : "Metrics are served only to this machine; set METRICS_TOKEN to scrape from elsewhere";
      noteErrorCode(request, "UNAUTHORIZED");
      return reply.code(403).send(errorBody(new ApiError(msg, "UNAUTHORIZED", 403)));
    }
    reply.header("Content-Type", metrics.registry.contentType).header("Cache-Control", "no-store");
    return reply.send(await metrics.registry.metrics());
  });
}
