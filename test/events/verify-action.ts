/**
 * The state-equivalence harness (issue 5; Zulip's verify_action idea). For each viewer:
 * register a queue for every event type with the modern client capabilities, run one action over
 * HTTP, collect what the queue delivered, check every event against the OpenAPI schemas, apply the
 * events to the initial state as a client would (apply-events.ts), register again and require the
 * two states to be equal. A viewer listed with expected events must receive exactly those (type or
 * type/op, in order), so visibility is asserted too: `[]` means "must hear nothing". Queues are
 * registered for all event types with include_subscribers, slim_presence, apply_markdown and
 * client_gravatar off (so avatar URLs compare as sent); opts.register adds or overrides parameters.
 *
 * Normalisations (documented; everything else must match exactly):
 * - queue_id, last_event_id, server_timestamp and presence_last_update_id are per-request or a
 *   polling cursor no event carries (Zulip's apply_event says the same of presence_last_update_id);
 * - arrays whose order carries no meaning are sorted (SET_ARRAYS, KEYED_ARRAYS);
 * - avatar_url of a user object is compared only where the fresh register includes it: under the
 *   user_avatar_url_field_optional capability the server may leave it out (spec section 2);
 * - opts.serverRecomputed names keys a client cannot derive from events (Zulip recomputes them
 *   server-side, e.g. max_message_id after deleting the newest message); SERVER_DERIVED lists
 *   the ones every comparison leaves out (permissions computed from group settings).
 */
import assert from "node:assert/strict";
import { getSystemBot } from "../../src/actions/bots/notification-bot.js";
import { NOTIFICATION_BOT, WELCOME_BOT } from "../../src/policy/system-bots.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import { fakeEmailDomain } from "../../src/policy/email-visibility.js";
import type { ApiResponse, TestRealm, TestUser, UserName } from "../helpers/fixtures.js";
import { eventViolations } from "../helpers/contract/validator.js";
import { applyEvents } from "./apply-events.js";
import type { Event, State } from "./event-state.js";

/** Every client capability a current Zulip client declares. */
export const MODERN_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  include_deactivated_groups: true,
  archived_channels: true,
  linkifier_url_template: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

/** A client that predates archived channels and deactivated groups (FL 294, 315). */
export const LEGACY_LISTS_REGISTER = {
  client_capabilities: { ...MODERN_CAPABILITIES, archived_channels: false, include_deactivated_groups: false },
};

export const REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  include_subscribers: true,
  slim_presence: true,
  client_capabilities: MODERN_CAPABILITIES,
};

const UNCOMPARED = ["result", "msg", "queue_id", "last_event_id", "server_timestamp", "presence_last_update_id"];

/**
 * Values the server derives from group settings and memberships and that Zulip's apply_event
 * recomputes server-side (a client derives them from the group data it keeps): the viewer's
 * permissions of the realm_user section and the deprecated enum policies of the realm section.
 */
const SERVER_DERIVED = [
  "can_create_streams", "can_create_public_streams", "can_create_private_streams", "can_create_web_public_streams",
  "can_invite_others_to_realm", "realm_wildcard_mention_policy", "realm_create_public_stream_policy",
  "realm_create_private_stream_policy", "realm_create_web_public_stream_policy",
];

/** Arrays of ids (or words) that are sets. */
const SET_ARRAYS = new Set([
  "subscribers", "members", "direct_subgroup_ids", "direct_members", "direct_subgroups", "unread_message_ids",
  "mentions", "starred_messages", "alert_words", "realm_default_streams", "user_ids", "muted_users",
]);

/** Arrays of objects that are sets, with the fields that identify an element. */
const KEYED_ARRAYS: Record<string, string[]> = {
  realm_users: ["user_id"],
  realm_non_active_users: ["user_id"],
  realm_bots: ["user_id"],
  streams: ["stream_id"],
  subscriptions: ["stream_id"],
  unsubscribed: ["stream_id"],
  never_subscribed: ["stream_id"],
  realm_user_groups: ["id"],
  drafts: ["id"],
  user_topics: ["stream_id", "topic_name"],
  pms: ["other_user_id"],
  streams_unread: ["stream_id", "topic"],
  huddles: ["user_ids_string"],
};

function keyOf(element: State, fields: string[]): string {
  return JSON.stringify(fields.map((f) => element[f]));
}

function normalize(node: unknown, key = ""): unknown {
  if (Array.isArray(node)) {
    const items = node.map((v) => normalize(v));
    if (SET_ARRAYS.has(key)) return [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    const fields = KEYED_ARRAYS[key];
    if (fields) return [...items].sort((a, b) => (keyOf(a as State, fields) < keyOf(b as State, fields) ? -1 : 1));
    return items;
  }
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node as State).map(([k, v]) => [k, normalize(v, key === "unread_msgs" && k === "streams" ? "streams_unread" : k)]),
  );
}

/** Drops avatar_url from applied user objects where the fresh register left it out (see header). */
function alignOptionalAvatars(applied: State, fresh: State): void {
  for (const list of ["realm_users", "realm_non_active_users"]) {
    const freshById = new Map(((fresh[list] ?? []) as State[]).map((u) => [u.user_id, u]));
    for (const u of (applied[list] ?? []) as State[]) if (freshById.has(u.user_id) && !("avatar_url" in freshById.get(u.user_id)!)) delete u.avatar_url;
  }
}

/** Where two JSON values differ, as "path: applied → fresh" lines (at most 20). */
function differences(a: unknown, b: unknown, path = "", out: string[] = []): string[] {
  if (out.length >= 20) return out;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) differences((a as State)[k], (b as State)[k], `${path}/${k}`, out);
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  return out;
}

function comparable(state: State, skip: readonly string[]): unknown {
  const copy = { ...state };
  for (const k of [...UNCOMPARED, ...SERVER_DERIVED, ...skip]) delete copy[k];
  return normalize(copy);
}

export interface VerifyOptions {
  /** Exact event types (`type` or `type/op`) each named viewer must receive, in order. */
  expect?: Partial<Record<string, string[]>>;
  /** Keys a client cannot derive from events (see header); left out of the comparison. */
  serverRecomputed?: string[];
  /** Extra POST /register parameters (e.g. other capabilities). */
  register?: Record<string, unknown>;
}

type Viewer = UserName | TestUser;

const nameOf = (t: TestRealm, v: Viewer) => (typeof v === "string" ? v : (Object.entries(t.users).find(([, u]) => u.id === v.id)?.[0] ?? v.email));

async function register(t: TestRealm, viewer: Viewer, extra: Record<string, unknown>): Promise<State> {
  const res = await t.as(viewer).post("/register", { ...REGISTER_PARAMS, ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/**
 * Runs `action` once and checks state equivalence for every viewer; returns the events each
 * viewer's queue received, by viewer name.
 */
export async function verifyAction(
  t: TestRealm,
  viewers: readonly Viewer[],
  action: () => Promise<ApiResponse>,
  opts: VerifyOptions = {},
): Promise<Record<string, Event[]>> {
  const initial = new Map<Viewer, State>();
  for (const v of viewers) initial.set(v, await register(t, v, opts.register ?? {}));
  const res = await action();
  assert.ok(res.status === 200, `action failed: ${res.status} ${JSON.stringify(res.body)}`);
  await t.deps.presence.flush();
  const delivered: Record<string, Event[]> = {};
  for (const v of viewers) {
    const name = nameOf(t, v);
    const before = initial.get(v)!;
    const got = await t.as(v).get("/events", { queue_id: before.queue_id, dont_block: true });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const events = (got.body.events as Event[]).filter((e) => e.type !== "heartbeat");
    delivered[name] = events;
    assert.deepEqual(eventViolations(events), [], `${name}: events not matching the OpenAPI schemas`);
    const expected = opts.expect?.[name];
    if (expected) {
      const labels = events.map((e, i) => (expected[i]?.includes("/") ? `${e.type}/${e.op}` : e.type));
      assert.deepEqual(labels, expected, `${name}: delivered ${JSON.stringify(events)}`);
    }
    const capabilities = ({ ...REGISTER_PARAMS, ...opts.register }.client_capabilities ?? {}) as Record<string, boolean>;
    const applied = applyEvents(before, events, {
      userListIncomplete: Boolean(capabilities.user_list_incomplete),
      placeholderDomain: fakeEmailDomain(t.deps.config, t.subdomain),
    });
    const fresh = await register(t, v, opts.register ?? {});
    alignOptionalAvatars(applied, fresh);
    const skip = opts.serverRecomputed ?? [];
    const diff = differences(comparable(applied, skip), comparable(fresh, skip));
    assert.deepEqual(diff, [], `${name}: state after applying ${JSON.stringify(events)} differs from a fresh register (applied → fresh)`);
    await t.as(v).delete("/events", { queue_id: before.queue_id });
    await t.as(v).delete("/events", { queue_id: fresh.queue_id });
  }
  return delivered;
}

/** Creates the realm's system bots (Notification Bot, Welcome Bot) up front, so tests see only the events of their action. */
export async function ensureNotificationBot(t: TestRealm): Promise<void> {
  const realm = (await getRealmById(readTx(t.deps.store), t.realmId))!;
  await transaction(t.deps.store, async (tx) => {
    await getSystemBot(t.deps, tx, realm, NOTIFICATION_BOT);
    await getSystemBot(t.deps, tx, realm, WELCOME_BOT);
  });
}
