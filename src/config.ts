/**
 * Typed configuration. This is the only module that reads `process.env` (house rule); everything
 * else receives a `Config` through `buildApp(deps)` or the CLI.
 */
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { parseConstructorGroups, parseNextcloudTalk, parseWebex, type ConstructorGroupsConfig, type NextcloudTalkConfig, type WebexConfig } from "./config-video-calls.js";

/**
 * A setting the server cannot start with. The message names the setting and says how to fix it;
 * start-up prints it as one log line and exits non-zero (issue 18, item 7).
 */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
  }
}

export interface JwtKeyConfig {
  key: string;
  algorithms: string[];
}

export interface Config {
  port: number;
  host: string;
  /** `sqlite:relative/or/abs/path` or `postgres://…` */
  databaseUrl: string;
  uploadsDir: string;
  /** Host (with optional port) that realm subdomains hang off: `SUB.EXTERNAL_HOST`. */
  externalHost: string;
  /**
   * Zulip's FAKE_EMAIL_DOMAIN (env `FAKE_EMAIL_DOMAIN`): the domain of bot and placeholder
   * addresses when a realm's host cannot end an email address (it has a port, or no dot);
   * null: EXTERNAL_HOST without its port, Zulip's default.
   */
  fakeEmailDomain: string | null;
  /** Unset: events stay in this process. Set: events fan out across processes through Redis. */
  redisUrl: string | null;
  rateLimiting: boolean;
  /** Per-subdomain JWT keys for `POST /jwt/fetch_api_key` (env `JWT_AUTH_KEYS`, JSON). */
  jwtAuthKeys: Record<string, JwtKeyConfig>;
  /** Zulip's MAX_FILE_UPLOAD_SIZE in MiB; 0 turns uploads off (zulip-facts section c). */
  maxFileUploadSizeMib: number;
  /** Directory for runtime files such as initial credentials. */
  varDir: string;
  logLevel: string;
  /** Zulip's WEB_PUBLIC_STREAMS_ENABLED: whether web-public channels may exist at all. */
  webPublicStreamsEnabled: boolean;
  /** Seconds a GET /events may stay parked before a heartbeat answers it (Zulip: ~50). */
  eventHeartbeatSeconds: number;
  /** Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS: how long a POST to an outgoing-webhook bot may take (env of that name). */
  outgoingWebhookTimeoutSeconds: number;
  /** OUTGOING_WEBHOOK_ALLOW_PRIVATE=on: outgoing-webhook bots may call loopback and private addresses (off: refused, against request forgery). */
  outgoingWebhookAllowPrivate: boolean;
  /** Zulip's BIG_BLUE_BUTTON_URL and BIG_BLUE_BUTTON_SECRET (env of those names): the BigBlueButton server calls are made on; null: not offered. */
  bigBlueButton: { url: string; secret: string } | null;
  /** Zulip's NEXTCLOUD_SERVER, NEXTCLOUD_TALK_USERNAME, NEXTCLOUD_TALK_PASSWORD: Nextcloud Talk calls (all three, or null: not offered). */
  nextcloudTalk: NextcloudTalkConfig | null;
  /** Zulip's CONSTRUCTOR_GROUPS_URL, CONSTRUCTOR_GROUPS_ACCESS_KEY, CONSTRUCTOR_GROUPS_SECRET_KEY: Constructor Groups calls. */
  constructorGroups: ConstructorGroupsConfig | null;
  /** Zulip's VIDEO_WEBEX_CLIENT_ID, VIDEO_WEBEX_CLIENT_SECRET (and VIDEO_WEBEX_API_URL): Webex calls, each user through Webex's OAuth. */
  webex: WebexConfig | null;
  /** Base URL of the mobile push relay (env `PUSH_BOUNCER_URL`); null: no push service (spec 4.21). */
  pushBouncerUrl: string | null;
  /** This server's registration with the push relay (env `PUSH_BOUNCER_SERVER_ID`, `PUSH_BOUNCER_API_KEY`; Zulip's zulip_org_id / zulip_org_key), sent as HTTP Basic credentials; null: none sent. */
  pushBouncerServerId: string | null;
  pushBouncerApiKey: string | null;
  /** Uploads go to this S3-compatible bucket when `S3_BUCKET` is set; otherwise to `uploadsDir`. */
  s3: S3Config | null;
  /** Outgoing mail goes through this SMTP server (env `SMTP_URL`); null: written as .eml files under `varDir/mail`. */
  smtpUrl: string | null;
  /** The From address of the server's mail (env `MAIL_FROM`; default noreply@ the external host). */
  mailFrom: string;
  /** Zulip's INVITATION_LINK_VALIDITY_MINUTES: default lifetime of an invitation (spec section 8). */
  invitationLinkValidityMinutes: number;
  /**
   * Whether the session cookie carries `Secure` (env `SESSION_COOKIE_SECURE`): true, false, or null
   * (`auto`, the default) to set it exactly when the request came over HTTPS.
   */
  sessionCookieSecure: boolean | null;
  /** Each realm's upload quota in MiB (env `UPLOAD_QUOTA_MIB`, Zulip's upload_quota_mib); null: unlimited. */
  uploadQuotaMib: number | null;
  /**
   * Proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed (env `TRUSTED_PROXIES`:
   * comma-separated addresses, CIDR ranges or `loopback`, `linklocal`, `uniquelocal`). Empty, the
   * default: the connection's own address counts, so no client can pick the address its rate
   * limits and logs are keyed on (issue 16, F7). Behind nginx on the same box: `loopback`.
   */
  trustedProxies: string[];
  /** Characters (keys plus values) one bot may keep in its storage (env `USER_STATE_SIZE_LIMIT`, Zulip's setting). */
  botStorageSizeLimit: number;
  /**
   * Zulip's EMAIL_GATEWAY_PATTERN (env `EMAIL_GATEWAY_PATTERN`): the channel email address template,
   * `%s` standing for the address's token part (e.g. `%s@chat.example.com`); "" when no gateway
   * receives mail for this server, and then channels' email addresses are "" as in Zulip.
   */
  emailGatewayPattern: string;
  /**
   * Zulip's ENABLE_GRAVATAR (env `ENABLE_GRAVATAR`, default off): avatars of users who uploaded
   * none point at Gravatar. Off, Parley serves generated default avatars itself.
   */
  enableGravatar: boolean;
  /**
   * Bearer token for `GET /metrics` (env `METRICS_TOKEN`). Unset: /metrics answers only
   * connections from this machine that did not come through a proxy (no X-Forwarded-For), which
   * is how Prometheus scrapes each process on 127.0.0.1:PORT directly.
   */
  metricsToken: string | null;
  /**
   * A listening socket handed over by systemd socket activation (`LISTEN_FDS`=1 for this
   * `LISTEN_PID`): fd 3. The socket outlives the process, so connections wait in its backlog
   * across a restart instead of being refused (deploy/systemd/parley@.socket). null: listen on
   * HOST:PORT.
   */
  listenFd: number | null;
  /**
   * Zulip's CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE (env of that name, default off): guests
   * limited by can_access_all_users_group also get presence of accessible users only (FL 228).
   * Off, as in Zulip, they see every user id's availability and nothing else about the unknown ones.
   */
  canAccessAllUsersGroupLimitsPresence: boolean;
  /**
   * How many worker processes serve the port (env `WORKERS`, default the number of cores on
   * PostgreSQL and 1 on SQLite, see parseWorkers): node's
   * cluster module, queue-affine routing of GET/DELETE /events (src/cluster/, docs/ARCHITECTURE.md).
   * 1 is today's single process exactly. An in-memory SQLite store or a socket handed over by
   * systemd (`LISTEN_FDS`) runs one process whatever is asked (main.ts says so in the log).
   */
  workers: number;
  /**
   * Set by the cluster primary in the environment of each worker it forks (`PARLEY_WORKER_INDEX`,
   * 0..WORKERS-1, kept across restarts); null in a single process and in the primary itself.
   */
  workerIndex: number | null;
  /**
   * An image proxy in Zulip's Camo scheme (env `CAMO_URL` and `CAMO_KEY`, both or neither; off by
   * default): previews of images and videos on other hosts load through it, so readers' browsers
   * never contact those hosts (issue 16, F17). Zulip's settings are CAMO_URI and CAMO_KEY.
   */
  camo: CamoConfig | null;
}

export interface CamoConfig {
  /** The proxy's base URL, ending in "/". */
  url: string;
  key: string;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, Ceph…); AWS itself when null. */
  endpoint: string | null;
  /** Bucket in the path rather than the host name, which most S3-compatible services need. */
  forcePathStyle: boolean;
  /** Static credentials; null: the AWS SDK's default chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/** S3 settings from S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY. */
function parseS3(env: NodeJS.ProcessEnv): S3Config | null {
  if (!env.S3_BUCKET) return null;
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError("S3_ACCESS_KEY_ID", "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS SDK's default credentials)");
  }
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || "us-east-1",
    endpoint: env.S3_ENDPOINT || null,
    forcePathStyle: (env.S3_FORCE_PATH_STYLE || (env.S3_ENDPOINT ? "true" : "false")).toLowerCase() === "true",
    credentials: env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY as string } : null,
  };
}

function intFromEnv(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(name, `must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

/** BigBlueButton needs both its API URL (ending in /, as Zulip's setting) and its shared secret. */
function parseBigBlueButton(env: NodeJS.ProcessEnv): { url: string; secret: string } | null {
  const url = env.BIG_BLUE_BUTTON_URL ?? "";
  const secret = env.BIG_BLUE_BUTTON_SECRET ?? "";
  if (url === "" && secret === "") return null;
  if (url === "" || secret === "") throw new ConfigError("BIG_BLUE_BUTTON_URL", "BIG_BLUE_BUTTON_URL and BIG_BLUE_BUTTON_SECRET must be set together (or neither)");
  if (!/^https?:\/\//.test(url)) throw new ConfigError("BIG_BLUE_BUTTON_URL", `must be an http(s) URL, got ${JSON.stringify(url)}`);
  return { url: url.endsWith("/") ? url : `${url}/`, secret };
}

function failConfig(setting: string, message: string): never {
  throw new ConfigError(setting, message);
}

const DEFAULT_PORT = 9991;
/** More worker processes than this would only compete for the same cores and store. */
const MAX_WORKERS = 64;

/**
 * WORKERS: a positive integer, or unset/`auto`: the number of cores Node may use on PostgreSQL, one
 * process on SQLite. SQLite lets one process write at a time and a worker waiting for the write lock
 * sleeps inside SQLite's busy handler, its event loop stopped: in the bench's S14 (quick, load 3.3)
 * 2 workers served sends at 0.93× one process with p99 1.5 s against 0.17 s, while reads gained
 * 1.3–1.7×. So several SQLite workers are an operator's explicit choice (docs/OPERATIONS.md).
 */
function parseWorkers(value: string | undefined, databaseUrl: string): number {
  if (value === undefined || value === "" || value.toLowerCase() === "auto") {
    return databaseUrl.startsWith("sqlite:") ? 1 : Math.min(availableParallelism(), MAX_WORKERS);
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) throw new ConfigError("WORKERS", `must be a whole number from 1 to ${MAX_WORKERS} (or auto), got ${JSON.stringify(value)}`);
  return n;
}

/**
 * EXTERNAL_HOST names the server in every link it hands out (realm URLs, invitations, uploads).
 * Its default fits only the default port: with PORT changed and EXTERNAL_HOST unset, every link
 * would point at port 9991, so that combination is refused rather than guessed.
 */
function parseExternalHost(env: NodeJS.ProcessEnv, port: number): string {
  if (env.EXTERNAL_HOST) return env.EXTERNAL_HOST.toLowerCase();
  if (port !== DEFAULT_PORT) {
    throw new ConfigError(
      "EXTERNAL_HOST",
      `unset while PORT=${port}, so links would point at localhost:${DEFAULT_PORT}; set EXTERNAL_HOST to the host (and port) users reach this server at, e.g. EXTERNAL_HOST=localhost:${port} or EXTERNAL_HOST=chat.example.com behind a proxy`,
    );
  }
  return `localhost:${DEFAULT_PORT}`;
}

/** systemd's socket-activation protocol (sd_listen_fds): one socket, meant for this very process. */
function parseListenFd(env: NodeJS.ProcessEnv): number | null {
  if (!env.LISTEN_FDS || env.LISTEN_PID !== String(process.pid)) return null;
  if (env.LISTEN_FDS !== "1") throw new ConfigError("LISTEN_FDS", `Parley takes exactly one socket, got ${env.LISTEN_FDS}; give its .socket unit one ListenStream`);
  return 3;
}

const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function parseTrustedProxies(value: string | undefined): string[] {
  const entries = (value ?? "").split(",").map((e) => e.trim()).filter((e) => e !== "");
  for (const entry of entries) {
    const [address, bits, extra] = entry.split("/");
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (!PROXY_RANGE_NAMES.has(entry) && (family === 0 || !validBits || extra !== undefined)) {
      throw new ConfigError("TRUSTED_PROXIES", `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`);
    }
  }
  return entries;
}

function parseEmailGatewayPattern(value: string | undefined): string {
  const pattern = value ?? "";
  if (pattern !== "" && pattern.split("%s").length !== 2) throw new Error(`EMAIL_GATEWAY_PATTERN must contain %s exactly once, got ${pattern}`);
  return pattern;
}

function parseCamo(url: string | undefined, key: string | undefined): CamoConfig | null {
  if (!url && !key) return null;
  if (!url || !key) throw new Error("CAMO_URL and CAMO_KEY: set both (the image proxy's address and its shared key) or neither");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`CAMO_URL: "${url}" is not a URL (e.g. https://camo.example.com/)`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`CAMO_URL: "${url}" must be an http(s) URL`);
  return { url: parsed.href.endsWith("/") ? parsed.href : `${parsed.href}/`, key };
}

function parseSessionCookieSecure(value: string | undefined): boolean | null {
  const v = (value || "auto").toLowerCase();
  if (v === "auto") return null;
  if (v === "true" || v === "false") return v === "true";
  throw new ConfigError("SESSION_COOKIE_SECURE", `must be true, false or auto, got ${JSON.stringify(value)}`);
}

function parseJwtKeys(value: string | undefined): Record<string, JwtKeyConfig> {
  if (!value) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigError("JWT_AUTH_KEYS", "must be JSON: {\"subdomain\":{\"key\":\"…\",\"algorithms\":[\"HS256\"]}}");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError("JWT_AUTH_KEYS", "must be a JSON object keyed by subdomain");
  }
  const out: Record<string, JwtKeyConfig> = {};
  for (const [subdomain, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const e = entry as { key?: unknown; algorithms?: unknown };
    if (typeof e?.key !== "string" || !Array.isArray(e.algorithms) || !e.algorithms.every((a) => typeof a === "string")) {
      throw new ConfigError("JWT_AUTH_KEYS", `entry ${JSON.stringify(subdomain)} needs a string key and a list of algorithms`);
    }
    out[subdomain] = { key: e.key, algorithms: e.algorithms as string[] };
  }
  return out;
}

/** Builds the configuration from an environment (defaults are the ones DEVELOPERS.md fixes). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFromEnv("PORT", env.PORT, DEFAULT_PORT);
  if (port > 65535) throw new ConfigError("PORT", `must be a TCP port (1-65535), got ${port}`);
  const externalHost = parseExternalHost(env, port);
  return {
    port,
    host: env.HOST || "127.0.0.1",
    databaseUrl: env.DATABASE_URL || "sqlite:var/parley.sqlite3",
    uploadsDir: resolve(env.UPLOADS_DIR || "var/uploads"),
    externalHost,
    fakeEmailDomain: env.FAKE_EMAIL_DOMAIN ? env.FAKE_EMAIL_DOMAIN.toLowerCase() : null,
    redisUrl: env.REDIS_URL || null,
    rateLimiting: (env.RATE_LIMITING || "on").toLowerCase() !== "off",
    jwtAuthKeys: parseJwtKeys(env.JWT_AUTH_KEYS),
    maxFileUploadSizeMib: intFromEnv("MAX_FILE_UPLOAD_SIZE_MIB", env.MAX_FILE_UPLOAD_SIZE_MIB, 100),
    varDir: resolve(env.PARLEY_VAR_DIR || "var"),
    logLevel: env.LOG_LEVEL || "info",
    eventHeartbeatSeconds: intFromEnv("EVENT_HEARTBEAT_SECONDS", env.EVENT_HEARTBEAT_SECONDS, 50),
    bigBlueButton: parseBigBlueButton(env),
    nextcloudTalk: parseNextcloudTalk(env, failConfig),
    constructorGroups: parseConstructorGroups(env, failConfig),
    webex: parseWebex(env, failConfig),
    outgoingWebhookTimeoutSeconds: Math.max(1, intFromEnv("OUTGOING_WEBHOOK_TIMEOUT_SECONDS", env.OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 10)),
    outgoingWebhookAllowPrivate: (env.OUTGOING_WEBHOOK_ALLOW_PRIVATE ?? "off").toLowerCase() === "on",
    webPublicStreamsEnabled: (env.WEB_PUBLIC_STREAMS_ENABLED || "true").toLowerCase() !== "false",
    pushBouncerUrl: env.PUSH_BOUNCER_URL ? env.PUSH_BOUNCER_URL.replace(/\/+$/, "") : null,
    pushBouncerServerId: env.PUSH_BOUNCER_SERVER_ID || null,
    pushBouncerApiKey: env.PUSH_BOUNCER_API_KEY || null,
    s3: parseS3(env),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || `noreply@${externalHost.replace(/:\d+$/, "")}`,
    invitationLinkValidityMinutes: intFromEnv("INVITATION_LINK_VALIDITY_MINUTES", env.INVITATION_LINK_VALIDITY_MINUTES, 14400),
    sessionCookieSecure: parseSessionCookieSecure(env.SESSION_COOKIE_SECURE),
    uploadQuotaMib: env.UPLOAD_QUOTA_MIB ? intFromEnv("UPLOAD_QUOTA_MIB", env.UPLOAD_QUOTA_MIB, 0) : null,
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    botStorageSizeLimit: intFromEnv("USER_STATE_SIZE_LIMIT", env.USER_STATE_SIZE_LIMIT, 10_000_000),
    emailGatewayPattern: parseEmailGatewayPattern(env.EMAIL_GATEWAY_PATTERN),
    enableGravatar: (env.ENABLE_GRAVATAR || "false").toLowerCase() === "true",
    camo: parseCamo(env.CAMO_URL, env.CAMO_KEY),
    metricsToken: env.METRICS_TOKEN || null,
    listenFd: parseListenFd(env),
    workers: parseWorkers(env.WORKERS, env.DATABASE_URL || "sqlite:var/parley.sqlite3"),
    workerIndex: env.PARLEY_WORKER_INDEX ? intFromEnv("PARLEY_WORKER_INDEX", env.PARLEY_WORKER_INDEX, 0) : null,
    canAccessAllUsersGroupLimitsPresence: (env.CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE || "false").toLowerCase() === "true",
  };
}

/** Settings for the test suite: which extra stores to exercise (read here, per the house rule). */
export function testStoreUrls(env: NodeJS.ProcessEnv = process.env): { postgres: string | null; redis: string | null } {
  return { postgres: env.TEST_DATABASE_URL || null, redis: env.REDIS_URL || null };
}

/** The environment for a child process (pg_dump, pg_restore): this process's, plus `extra`. */
export function childEnvironment(extra: Record<string, string>, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, ...extra };
}
