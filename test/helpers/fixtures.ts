/**
 * The standard test realm (subdomain "zulip") with named users, in Zulip's test tradition, and an
 * HTTP client that calls the API as any of them through `app.inject()`.
 */
import type { FastifyInstance } from "fastify";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { checkCreateUser } from "../../src/actions/users/users.js";
import { buildApp } from "../../src/app.js";
import { loadConfig, type Config } from "../../src/config.js";
import type { AppDeps, Clock } from "../../src/deps.js";
import { transaction, type Store } from "../../src/store/db.js";
import { PresenceService } from "../../src/actions/users/presence.js";
import { MemoryRateCounter } from "../../src/lib/rate-limiter.js";
import { LocalEventBus, type ChatEvent } from "../../src/events/bus.js";
import { QueueRegistry } from "../../src/events/registry.js";
import { getRealmById } from "../../src/store/realms.js";
import { updateUser } from "../../src/store/users.js";
import { readTx } from "../../src/store/db.js";
import { hashPassword } from "../../src/lib/secrets.js";
import { installContractHooks } from "./contract/hook.js";
import { CAN_SNAPSHOT_POSTGRES, openTestStore, snapshotTestStore, type StoreKind, type StoreSnapshot, type TestStore, type TestStoreOptions } from "./stores.js";

// Every answer and event of the apps this process builds is held to Zulip's API contract.
installContractHooks();

export const EXTERNAL_HOST = "testserver.local:9991";
export const PASSWORD = "correct horse battery staple";

let passwordHash: Promise<string> | null = null;

/**
 * PASSWORD's Argon2 hash, computed once per process: hashing it for each of the standard realm's
 * users cost a quarter of a second of CPU per test. Every user gets the same hash (salts differ
 * only between processes), which logs in exactly as a hash of their own would.
 */
function standardPasswordHash(): Promise<string> {
  passwordHash ??= hashPassword(PASSWORD);
  return passwordHash;
}

export interface TestUser {
  id: number;
  email: string;
  apiKey: string;
  fullName: string;
  role: number;
}

export type UserName = "desdemona" | "iago" | "shiva" | "hamlet" | "othello" | "cordelia" | "polonius" | "bot";

/** The cast besides the owner, desdemona (the fuzz suite builds its realms from it too). */
export const USERS: Array<{ name: Exclude<UserName, "desdemona">; fullName: string; role: number; bot?: boolean }> = [
  { name: "iago", fullName: "Iago", role: 200 },
  { name: "shiva", fullName: "Shiva", role: 300 },
  { name: "hamlet", fullName: "King Hamlet", role: 400 },
  { name: "othello", fullName: "Othello, the Moor of Venice", role: 400 },
  { name: "cordelia", fullName: "Cordelia, Lear's daughter", role: 400 },
  { name: "polonius", fullName: "Polonius", role: 600 },
  { name: "bot", fullName: "Default Bot", role: 400, bot: true },
];

export class FakeClock implements Clock {
  constructor(public seconds = 1_700_000_000) {}
  now(): number {
    return this.seconds;
  }
}

export interface ApiResponse {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, string | string[] | number | undefined>;
}

export interface Client {
  get(path: string, params?: Record<string, unknown>): Promise<ApiResponse>;
  post(path: string, params?: Record<string, unknown>): Promise<ApiResponse>;
  patch(path: string, params?: Record<string, unknown>): Promise<ApiResponse>;
  delete(path: string, params?: Record<string, unknown>): Promise<ApiResponse>;
  put(path: string, params?: Record<string, unknown>): Promise<ApiResponse>;
}

/** Form-encodes like a Zulip client: strings as-is, everything else as JSON text. */
export function formEncode(params: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return form.toString();
}

export interface PublishedEvent {
  event: ChatEvent;
  userIds: number[];
}

export interface TestRealm {
  app: FastifyInstance;
  deps: AppDeps;
  testStore: TestStore;
  clock: FakeClock;
  realmId: number;
  subdomain: string;
  host: string;
  users: Record<UserName, TestUser>;
  /** Every event published since the realm was built (tests may clear it). */
  published: PublishedEvent[];
  /** A client authenticated as the named user (or with raw credentials, or none). */
  as(user: UserName | TestUser | null, opts?: { host?: string; authorization?: string }): Client;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), externalHost: EXTERNAL_HOST, logLevel: "silent", ...overrides };
}

/** Dependencies for a test app on `store`: fake clock, in-process bus, fresh queues. */
export function testDeps(store: Store, configOverrides: Partial<Config> = {}, clock: Clock = new FakeClock()): AppDeps {
  const events = new LocalEventBus();
  const queues = new QueueRegistry();
  events.subscribe((event, userIds) => queues.deliver(event, userIds));
  const config = testConfig(configOverrides);
  const presence = new PresenceService(store, events, { limitToAccessible: config.canAccessAllUsersGroupLimitsPresence });
  return { config, store, clock, events, queues, presence, rateLimiter: null };
}

/**
 * Lets an administrator POST /users: the can_create_users permission an operator grants with
 * `manage change-user-permission` (Zulip requires it of administrators since FL 36). The standard
 * realm's iago has it.
 */
export async function grantCanCreateUsers(store: Store, userId: number): Promise<void> {
  await transaction(store, (tx) => updateUser(tx, userId, { can_create_users: true }));
}

/** The standard realm's id and users, as a store holding it (or a copy of that store) has them. */
interface StandardRealm {
  realmId: number;
  users: Record<UserName, TestUser>;
}

/** Creates the standard realm (subdomain "zulip") and its users in an empty store. */
async function populateStandardRealm(store: Store, clock: Clock): Promise<StandardRealm> {
  const subdomain = "zulip";
  const { realmId, owner } = await checkCreateRealm(
    store,
    { subdomain, name: "Zulip Dev", ownerEmail: "desdemona@zulip.test", ownerName: "Desdemona", ownerPassword: PASSWORD },
    clock.now(),
  );
  const users = { desdemona: { id: owner.userId, email: owner.email, apiKey: owner.apiKey, fullName: "Desdemona", role: 100 } } as Record<UserName, TestUser>;
  const realm = (await getRealmById(readTx(store), realmId))!;
  const password_hash = await standardPasswordHash();
  for (const u of USERS) {
    const email = u.bot ? "default-bot@zulip.test" : `${u.name}@zulip.test`;
    const created = await transaction(store, async (tx) => {
      const user = await checkCreateUser(
        tx,
        realm,
        { email, fullName: u.fullName, password: null, role: u.role, botType: u.bot ? 1 : null, botOwnerId: u.bot ? owner.userId : null },
        clock.now(),
      );
      await updateUser(tx, user.userId, { password_hash });
      return user;
    });
    users[u.name] = { id: created.userId, email, apiKey: created.apiKey, fullName: u.fullName, role: u.role };
  }
  await grantCanCreateUsers(store, users.iago.id);
  return { realmId, users };
}

/**
 * A store holding the standard realm. Building it (the realm and its groups, eight users, the
 * owner's password hashed) was much of every test's set-up, and nothing in it depends on the test:
 * the same clock time, no configuration, no events. So each process builds it once per store kind,
 * snapshots that store, and opens a copy of the snapshot for each realm after that: the same rows,
 * ids and keys as a realm built afresh (only the random API keys and realm uuid are shared by the
 * realms of one process, each in a store of its own). On PostgreSQL a copy comes from a template
 * database of this process (CAN_SNAPSHOT_POSTGRES), which is worth making only from its second
 * realm on: the first is built in place. A SQLite file store is always built in place.
 */
const snapshots: Partial<Record<StoreKind, Promise<StandardRealm & { snapshot: StoreSnapshot }>>> = {};
let postgresRealmsBuilt = 0;

async function openStandardRealmStore(kind: StoreKind, clock: Clock, storeOptions: TestStoreOptions): Promise<{ testStore: TestStore } & StandardRealm> {
  const firstOnPostgres = kind === "postgres" && postgresRealmsBuilt++ === 0;
  if (storeOptions.sqliteFile || (kind === "postgres" && (!CAN_SNAPSHOT_POSTGRES || firstOnPostgres))) {
    const testStore = await openTestStore(kind, storeOptions);
    return { testStore, ...(await populateStandardRealm(testStore.store, clock)) };
  }
  snapshots[kind] ??= (async () => {
    const built = await openTestStore(kind);
    const standard = await populateStandardRealm(built.store, new FakeClock());
    const snapshot = await snapshotTestStore(kind, built);
    if (kind === "sqlite") await built.cleanup();
    return { ...standard, snapshot };
  })();
  const { snapshot, realmId, users } = await snapshots[kind];
  const testStore = await openTestStore(kind, { ...storeOptions, from: snapshot });
  return { testStore, realmId, users: structuredClone(users) };
}

export async function createTestRealm(kind: StoreKind, configOverrides: Partial<Config> = {}, storeOptions: TestStoreOptions = {}): Promise<TestRealm> {
  const clock = new FakeClock();
  const { testStore, realmId, users } = await openStandardRealmStore(kind, clock, storeOptions);
  const events = new LocalEventBus();
  const published: PublishedEvent[] = [];
  events.subscribe((event, userIds) => published.push({ event, userIds: [...userIds] }));
  const queues = new QueueRegistry();
  events.subscribe((event, userIds) => queues.deliver(event, userIds));
  const base = testDeps(testStore.store, configOverrides, clock);
  const presence = new PresenceService(testStore.store, events, { limitToAccessible: base.config.canAccessAllUsersGroupLimitsPresence });
  const deps: AppDeps = { ...base, events, queues, presence };
  if (configOverrides.rateLimiting) deps.rateLimiter = new MemoryRateCounter();
  const subdomain = "zulip";
  const app = await buildApp(deps, { logger: false });
  const host = `${subdomain}.${EXTERNAL_HOST}`;
  return {
    app,
    deps,
    testStore,
    clock,
    realmId,
    subdomain,
    host,
    users,
    published,
    as(who, opts = {}) {
      const user = typeof who === "string" ? users[who] : who;
      const headers: Record<string, string> = { host: opts.host ?? host };
      if (opts.authorization !== undefined) headers.authorization = opts.authorization;
      else if (user) headers.authorization = "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64");
      const call = async (method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT", path: string, params: Record<string, unknown> = {}) => {
        const url = `/api/v1${path}`;
        const res =
          method === "GET"
            ? await app.inject({ method, url: Object.keys(params).length ? `${url}?${formEncode(params)}` : url, headers })
            : await app.inject({
                method,
                url,
                headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
                payload: formEncode(params),
              });
        return { status: res.statusCode, body: res.json(), headers: res.headers as ApiResponse["headers"] };
      };
      return {
        get: (path, params) => call("GET", path, params),
        post: (path, params) => call("POST", path, params),
        patch: (path, params) => call("PATCH", path, params),
        delete: (path, params) => call("DELETE", path, params),
        put: (path, params) => call("PUT", path, params),
      };
    },
    async close() {
      await app.close();
      await testStore.cleanup();
    },
  };
}
