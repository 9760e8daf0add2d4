/**
 * Two realms on one server for the security suites: realm A is the standard test realm ("zulip",
 * test/helpers/fixtures.ts) and realm B ("elsinore") has the same cast of roles under its own host.
 * Every name in realm B carries "elsinore", a word nothing in realm A contains, so a listing of
 * realm A can be searched for anything of realm B.
 * Requests go through `app.inject()` with any Host and any Authorization header, form-encoded or
 * multipart (uploads, custom emoji).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { checkCreateUser } from "../../src/actions/users/users.js";
import type { AppDeps } from "../../src/deps.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import { startBouncer, type Bouncer } from "../helpers/bouncer.js";
import {
  EXTERNAL_HOST,
  PASSWORD,
  createTestRealm,
  formEncode,
  type ApiResponse,
  type FakeClock,
  type TestRealm,
  type TestUser,
  type UserName,
} from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import type { StoreKind } from "../helpers/stores.js";
import { multipartBody, type Part } from "../helpers/uploads.js";

/** Realm B's subdomain, also the marker in the name of everything made in realm B. */
export const REALM_B = "elsinore";

export const JWT_KEY = "permission-matrix-jwt-key-of-sufficient-length";

/** One realm as the security tests see it: its host, its users by role name, and a client. */
export interface RealmHandle {
  app: FastifyInstance;
  deps: AppDeps;
  clock: FakeClock;
  realmId: number;
  subdomain: string;
  host: string;
  users: Record<UserName, TestUser>;
  /** Calls the API as a user of this realm (or with no credentials) on this realm's host. */
  call(who: UserName | TestUser | null, req: ApiRequest): Promise<ApiResponse>;
}

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

export interface ApiRequest {
  method: Method;
  /** Below /api/v1 (or the site root with `root`), path parameters already filled in. */
  path: string;
  /** Outside the API: file URLs like /user_uploads/… are served at the site root. */
  root?: boolean;
  /** Query string for GET, urlencoded body otherwise; values encoded like a Zulip client. */
  params?: Record<string, unknown>;
  /** Sent as a multipart body instead of `params` (uploads, custom emoji). */
  files?: Part[];
}

export interface World {
  a: RealmHandle;
  b: RealmHandle;
  close(): Promise<void>;
}

/** The cast of realm B: the same roles as realm A's fixture, under elsinore.test addresses. */
const CAST: Array<{ name: Exclude<UserName, "desdemona">; role: number; bot?: boolean }> = [
  { name: "iago", role: 200 },
  { name: "shiva", role: 300 },
  { name: "hamlet", role: 400 },
  { name: "othello", role: 400 },
  { name: "cordelia", role: 400 },
  { name: "polonius", role: 600 },
  { name: "bot", role: 400, bot: true },
];

/** Sends one request to `host` with an explicit Authorization header (or none). */
export async function inject(app: FastifyInstance, host: string, authorization: string | undefined, req: ApiRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = { host };
  if (authorization !== undefined) headers.authorization = authorization;
  let url = req.root ? req.path : `/api/v1${req.path}`;
  let payload: string | Buffer | undefined;
  if (req.files) {
    const body = multipartBody(req.files);
    headers["content-type"] = body.contentType;
    payload = body.payload;
  } else if (req.method === "GET") {
    if (req.params && Object.keys(req.params).length > 0) url += `?${formEncode(req.params)}`;
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = formEncode(req.params ?? {});
  }
  const res = await app.inject({ method: req.method, url, headers, payload });
  const isJson = String(res.headers["content-type"] ?? "").startsWith("application/json");
  // File bytes (a root URL that served a file) are kept as text so a test can see what leaked.
  return { status: res.statusCode, body: isJson ? res.json() : { raw: res.body }, headers: res.headers as ApiResponse["headers"] };
}

function handle(t: Omit<RealmHandle, "call">): RealmHandle {
  return {
    ...t,
    call(who, req) {
      const user = typeof who === "string" ? t.users[who] : who;
      return inject(t.app, t.host, user ? basicAuth(user) : undefined, req);
    },
  };
}

async function addSecondRealm(a: TestRealm, subdomain: string): Promise<RealmHandle> {
  const domain = `${subdomain}.test`;
  const now = a.clock.now();
  const { realmId, owner } = await checkCreateRealm(
    a.deps.store,
    { subdomain, name: `Castle ${subdomain}`, ownerEmail: `desdemona@${domain}`, ownerName: `Desdemona of ${subdomain}`, ownerPassword: PASSWORD },
    now,
  );
  const users = { desdemona: { id: owner.userId, email: `desdemona@${domain}`, apiKey: owner.apiKey, fullName: `Desdemona of ${subdomain}`, role: 100 } } as Record<
    UserName,
    TestUser
  >;
  const realm = (await getRealmById(readTx(a.deps.store), realmId))!;
  for (const member of CAST) {
    const email = member.bot ? `default-bot@${domain}` : `${member.name}@${domain}`;
    const fullName = `${member.name} of ${subdomain}`;
    const created = await transaction(a.deps.store, (tx) =>
      checkCreateUser(
        tx,
        realm,
        { email, fullName, password: PASSWORD, role: member.role, botType: member.bot ? 1 : null, botOwnerId: member.bot ? owner.userId : null },
        now,
      ),
    );
    users[member.name] = { id: created.userId, email, apiKey: created.apiKey, fullName, role: member.role };
  }
  return handle({ app: a.app, deps: a.deps, clock: a.clock, realmId, subdomain, host: `${subdomain}.${EXTERNAL_HOST}`, users });
}

/**
 * Realm A with uploads and mail in a temporary directory, JWT login and a stand-in push relay
 * configured (so credential and push endpoints can succeed), and realm B beside it.
 */
export async function createWorld(kind: StoreKind): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "parley-security-"));
  const bouncer: Bouncer = await startBouncer();
  const a = await createTestRealm(kind, {
    uploadsDir: join(dir, "uploads"),
    varDir: join(dir, "var"),
    pushBouncerUrl: bouncer.url,
    jwtAuthKeys: { zulip: { key: JWT_KEY, algorithms: ["HS256"] } },
  });
  const b = await addSecondRealm(a, REALM_B);
  return {
    a: handle(a),
    b,
    async close() {
      await a.close();
      await bouncer.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
