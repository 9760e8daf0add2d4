/**
 * The realms the fuzz suite runs in: the fixture's cast and roles (../helpers/fixtures.ts) in the
 * fuzz app's store, seeded through the API with one of each thing an id can name, so that
 * valid-looking requests reach the handlers' logic. Accounts are created without password hashing
 * (one hash, computed once, is reused for hamlet so that POST /fetch_api_key can succeed).
 */
import type { FastifyInstance } from "fastify";
import { reactivateUserAccount } from "../../src/actions/users/user-activation.js";
import { doChangeRole } from "../../src/actions/users/user-admin.js";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { checkCreateUser } from "../../src/actions/users/users.js";
import type { AppDeps } from "../../src/deps.js";
import { hashPassword } from "../../src/lib/secrets.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import type { UserRow } from "../../src/store/types.js";
import { getUsersByIds, updateUser } from "../../src/store/users.js";
import { formEncode, PASSWORD, USERS, type TestUser, type UserName } from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import { multipartBody, type Part } from "../helpers/uploads.js";
import type { IdKind, Pools } from "./values.js";

export interface FuzzRealm {
  realmId: number;
  host: string;
  users: Record<UserName, TestUser>;
  pools: Pools;
}

const CAST: Array<{ name: UserName; fullName: string; role: number; bot?: boolean }> = [{ name: "desdemona", fullName: "Desdemona", role: 100 }, ...USERS];

const emailOf = (name: UserName) => (name === "bot" ? "default-bot@zulip.test" : `${name}@zulip.test`);
/** A 1×1 PNG, for the seeded upload and custom emoji and for fuzzed file parts. */
export const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let hamletHash: Promise<string> | undefined;

async function createAccounts(deps: AppDeps, subdomain: string): Promise<{ realmId: number; users: Record<UserName, TestUser> }> {
  const now = deps.clock.now();
  const owner = CAST[0];
  const created = await checkCreateRealm(deps.store, { subdomain, name: "Fuzz", ownerEmail: emailOf(owner.name), ownerName: owner.fullName, ownerPassword: "" }, now);
  const users = { desdemona: { id: created.owner.userId, email: emailOf("desdemona"), apiKey: created.owner.apiKey, fullName: owner.fullName, role: 100 } } as Record<UserName, TestUser>;
  const realm = (await getRealmById(readTx(deps.store), created.realmId))!;
  hamletHash ??= hashPassword(PASSWORD);
  const hash = await hamletHash;
  await transaction(deps.store, async (tx) => {
    for (const u of CAST.slice(1)) {
      const input = { email: emailOf(u.name), fullName: u.fullName, password: null, role: u.role, botType: u.bot ? 1 : null, botOwnerId: u.bot ? users.desdemona.id : null };
      const { userId, apiKey } = await checkCreateUser(tx, realm, input, now);
      users[u.name] = { id: userId, email: input.email, apiKey, fullName: u.fullName, role: u.role };
    }
    await updateUser(tx, users.hamlet.id, { password_hash: hash });
  });
  return { realmId: created.realmId, users };
}

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Builds a realm on `subdomain` and seeds it through the API; throws if any seeding call fails. */
export async function createFuzzRealm(app: FastifyInstance, deps: AppDeps, subdomain: string, externalHost: string): Promise<FuzzRealm> {
  const { realmId, users } = await createAccounts(deps, subdomain);
  const host = `${subdomain}.${externalHost}`;
  async function call(who: UserName, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, params: Record<string, unknown> = {}, file?: Part): Promise<Body> {
    const headers: Record<string, string> = { host, authorization: basicAuth(users[who]) };
    let payload: string | Buffer | undefined;
    if (file) {
      const body = multipartBody([file]);
      [headers["content-type"], payload] = [body.contentType, body.payload];
    } else if (method !== "GET") {
      [headers["content-type"], payload] = ["application/x-www-form-urlencoded", formEncode(params)];
    }
    const query = method === "GET" && Object.keys(params).length > 0 ? `?${formEncode(params)}` : "";
    const res = await app.inject({ method, url: `/api/v1${url}${query}`, headers, payload });
    if (res.statusCode !== 200) throw new Error(`seeding ${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json();
  }
  const u = (name: UserName) => users[name].id;
  const everyone = CAST.map((c) => u(c.name));
  await call("desdemona", "POST", "/users/me/subscriptions", { subscriptions: [{ name: "Verona" }, { name: "Denmark" }, { name: "Rome" }], principals: everyone });
  await call("hamlet", "POST", "/users/me/subscriptions", { subscriptions: [{ name: "Scotland" }], invite_only: true, principals: [u("hamlet"), u("othello")] });
  const channelId = async (name: string) => (await call("hamlet", "GET", "/get_stream_id", { stream: name })).stream_id as number;
  const [verona, denmark, rome, scotland] = [await channelId("Verona"), await channelId("Denmark"), await channelId("Rome"), await channelId("Scotland")];
  await call("desdemona", "DELETE", `/streams/${rome}`);
  const send = async (who: UserName, params: Record<string, unknown>) => (await call(who, "POST", "/messages", params)).id as number;
  const messages = [
    await send("hamlet", { type: "stream", to: verona, topic: "fuzz", content: "hello @**Othello, the Moor of Venice** #**Denmark>fuzz**" }),
    await send("othello", { type: "stream", to: verona, topic: "fuzz", content: "> quoted\n\n```py\nx\n```" }),
    await send("hamlet", { type: "stream", to: scotland, topic: "secret", content: "private" }),
    await send("cordelia", { type: "stream", to: denmark, topic: "", content: "empty topic" }),
    await send("hamlet", { type: "direct", to: [u("othello")], content: "dm" }),
    await send("hamlet", { type: "direct", to: [u("othello"), u("cordelia")], content: "group dm" }),
  ];
  await call("othello", "POST", `/messages/${messages[0]}/reactions`, { emoji_name: "smile" });
  const group = (await call("hamlet", "POST", "/user_groups/create", { name: "fuzzers", description: "", members: [u("hamlet"), u("othello")] })).group_id as number;
  const drafts = (await call("hamlet", "POST", "/drafts", { drafts: [{ type: "stream", to: [verona], topic: "d", content: "draft", timestamp: 1_700_000_000 }] })).ids as number[];
  const snippet = (await call("hamlet", "POST", "/saved_snippets", { title: "fuzz", content: "snippet" })).saved_snippet_id as number;
  // Reports go to the private Scotland, so reporting reaches the message checks; hamlet has a view.
  await call("iago", "PATCH", "/realm", { moderation_request_channel_id: scotland });
  await call("hamlet", "POST", "/navigation_views", { fragment: "narrow/is/followed", is_pinned: true, name: "Followed" });
  // Times to schedule for: an hour and a day after the test clock's now.
  const times = [deps.clock.now() + 3600, deps.clock.now() + 86_400];
  const scheduled = (await call("hamlet", "POST", "/scheduled_messages", { type: "stream", to: verona, topic: "later", content: "later", scheduled_delivery_timestamp: times[0] }))
    .scheduled_message_id as number;
  const reminder = (await call("hamlet", "POST", "/reminders", { message_id: messages[0], scheduled_delivery_timestamp: times[1], note: "fuzz" })).reminder_id as number;
  const device = (await call("hamlet", "POST", "/register_client_device")).device_id as number;
  const linkifier = (await call("iago", "POST", "/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" })).id as number;
  const field = (await call("iago", "POST", "/realm/profile_fields", { field_type: 1, name: "Phone" })).id as number;
  const folder = (await call("iago", "POST", "/channel_folders/create", { name: "Work", description: "" })).channel_folder_id as number;
  await call("iago", "POST", "/invites", { invitee_emails: "new@zulip.test", stream_ids: [verona] });
  await call("iago", "POST", "/invites/multiuse", { stream_ids: [] });
  const invites = ((await call("iago", "GET", "/invites")).invites as Body[]).map((i) => i.id as number);
  const upload = (await call("hamlet", "POST", "/user_uploads", {}, { filename: "a.png", contentType: "image/png", content: TINY_PNG })).url as string;
  const attachments = ((await call("hamlet", "GET", "/attachments")).attachments as Body[]).map((a) => a.id as number);
  await call("hamlet", "POST", "/realm/emoji/green_tick", {}, { filename: "g.png", contentType: "image/png", content: TINY_PNG });
  await call("hamlet", "POST", "/users/me/alert_words", { alert_words: ["fuzz"] });
  const groups = ((await call("desdemona", "GET", "/user_groups")).user_groups as Body[]).map((g) => g.id as number);
  const queues = [(await call("hamlet", "POST", "/register", { event_types: ["message"] })).queue_id as string, (await call("desdemona", "POST", "/register", { event_types: ["message"] })).queue_id as string];
  const ids: Record<IdKind, number[]> = {
    user: everyone,
    channel: [verona, denmark, rome, scotland],
    message: messages,
    group: [group, ...groups.filter((g) => g !== group)],
    draft: drafts,
    snippet: [snippet],
    scheduled: [scheduled, reminder],
    time: times,
    device: [device],
    linkifier: [linkifier],
    field: [field],
    folder: [folder],
    invite: invites,
    attachment: attachments,
    realm: [realmId],
  };
  const uploadParts = upload.replace(/^\/user_uploads\//, "").split("/");
  const strings = [...CAST.map((c) => emailOf(c.name)), "Verona", "Denmark", "Scotland", "Rome", "fuzz", "green_tick", "smile", "new@zulip.test", PASSWORD, "narrow/is/followed", "inbox", ...queues, ...uploadParts, uploadParts.slice(1).join("/")];
  return { realmId, host, users, pools: { ids, strings } };
}

/**
 * Undoes what a successful request may do to the fuzz cast itself (issue 9 item 2: destructive
 * endpoints must not wreck later runs): deactivated accounts are reactivated and changed roles
 * restored (owners first, so the realm always keeps one), and the credentials are re-read, since
 * an email change or a new API key is a legitimate success. Returns how many repairs it made.
 */
export async function repairCast(deps: AppDeps, realm: FuzzRealm): Promise<number> {
  const expected = new Map(CAST.map((c) => [realm.users[c.name].id, c]));
  const rows = await getUsersByIds(readTx(deps.store), realm.realmId, [...expected.keys()]);
  const broken = rows.filter((r) => !r.is_active || r.role !== expected.get(r.id)!.role);
  if (broken.length > 0) {
    const realmRow = (await getRealmById(readTx(deps.store), realm.realmId))!;
    const actor = rows.find((r) => r.is_active && r.role === 100) as UserRow;
    for (const row of broken.filter((r) => !r.is_active)) await reactivateUserAccount(deps, realmRow, actor, row.id);
    // Promotions before demotions, so there is always an owner.
    const roleFixes = broken.filter((r) => r.role !== expected.get(r.id)!.role).sort((a, b) => expected.get(a.id)!.role - expected.get(b.id)!.role);
    await transaction(deps.store, async (tx) => {
      for (const row of roleFixes) await doChangeRole(deps, tx, realmRow, actor, row, expected.get(row.id)!.role);
    });
  }
  for (const row of rows) {
    const user = realm.users[expected.get(row.id)!.name];
    [user.email, user.apiKey] = [row.delivery_email, row.api_key];
  }
  return broken.length;
}
