/**
 * The benchmark organisation, written straight into a store before any server starts:
 * - users: user0 (the owner) … user{N-1}, all members; every one keeps its API key here;
 * - generic channels channel-0 … with two "founders" each plus the reader (user1), who founded all;
 * - history (seedHistory): messages sent by the founders, so user_messages holds rows for them only
 *   (three per message). channel-0 carries half the history, a fifth of it in "busy topic";
 * - then (subscribeOrg) everyone joins subsPerUser generic channels, as people who joined later and
 *   read old history through the channel's shared history, and the two scenario channels:
 *   "everyone" (the S6 pollers plus the sender) and "hundred" (100 subscribers, S2).
 * The org is seeded once, copied (bench/lib/stores.ts), and each copy gets its own history size.
 */
import { checkCreateChannel } from "../../src/actions/channels/create-channel.js";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { checkCreateUser } from "../../src/actions/users/users.js";
import { channelColor } from "../../src/policy/channel-settings.js";
import { analyze, bulkInsertMessages } from "../../src/store/bulk-seed.js";
import { transaction, type Store, type Tx } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import { subscribeUsers } from "../../src/store/subscriptions.js";
import type { ChannelRow, RealmRow, UserRow } from "../../src/store/types.js";
import { getUserById } from "../../src/store/users.js";
import { benchDeps } from "./in-process.js";

export interface OrgShape {
  users: number;
  /** Generic channels plus the two scenario channels. */
  channels: number;
  subsPerUser: number;
  /** Users who long-poll in S6 (the last ones), all subscribed to "everyone". */
  pollers: number;
}

export interface BenchUser {
  id: number;
  email: string;
  apiKey: string;
}

export interface BenchChannel {
  id: number;
  name: string;
  recipientId: number;
}

export interface BenchOrg {
  realmId: number;
  users: BenchUser[];
  generic: BenchChannel[];
  everyone: BenchChannel;
  hundred: BenchChannel;
}

/**
 * Who plays which part (indexes into users; the pollers are the last `pollers` users). The
 * registrant (S8, S11) is in none of the channels the scenarios write to ("hundred" is users 2–101,
 * "everyone" the pollers), so a register answers the same state in every run, whatever earlier
 * scenarios managed to send: a register also lists the user's unread messages, and after S2 the
 * user 20 had thousands (docs/PERFORMANCE.md).
 */
export const ROLES = { owner: 0, reader: 1, sender: 2, me: 3, typist: 10, registrant: 105 } as const;
export const BUSY_TOPIC = "busy topic";
export const SEARCH_WORD = "deploy";
const USERS_PER_TRANSACTION = 500;
const NOW = 1_700_000_000;

const channelRef = (c: ChannelRow): BenchChannel => ({ id: c.id, name: c.name, recipientId: c.recipient_id as number });

async function createUsers(store: Store, realm: RealmRow, from: number, to: number): Promise<BenchUser[]> {
  return transaction(store, async (tx) => {
    const out: BenchUser[] = [];
    for (let i = from; i < to; i++) {
      const created = await checkCreateUser(tx, realm, { email: `user${i}@bench.test`, fullName: `User ${i}`, password: null }, NOW);
      out.push({ id: created.userId, email: created.email, apiKey: created.apiKey });
    }
    return out;
  });
}

/** The founders of generic channel k: the reader and two senders. */
function founders(users: BenchUser[], k: number): number[] {
  const n = users.length;
  return [users[ROLES.reader].id, users[3 + (k % (n - 3))].id, users[3 + ((k + 7) % (n - 3))].id];
}

/** Realm, users and channels (with their founders); the history and later subscriptions come after. */
export async function seedOrg(store: Store, shape: OrgShape, externalHost: string): Promise<BenchOrg> {
  const { realmId, owner } = await checkCreateRealm(
    store,
    { subdomain: "", name: "Bench", ownerEmail: "user0@bench.test", ownerName: "User 0", ownerPassword: "bench-owner-password" },
    NOW,
  );
  const realm = (await transaction(store, (tx) => getRealmById(tx, realmId))) as RealmRow;
  const users: BenchUser[] = [{ id: owner.userId, email: owner.email, apiKey: owner.apiKey }];
  for (let i = 1; i < shape.users; i += USERS_PER_TRANSACTION) users.push(...(await createUsers(store, realm, i, Math.min(shape.users, i + USERS_PER_TRANSACTION))));
  const deps = benchDeps(store, externalHost);
  const channels = await transaction(store, async (tx) => {
    const creator = (await getUserById(tx, realmId, owner.userId)) as UserRow;
    const create = async (name: string, subscriberIds: number[]) =>
      channelRef(await checkCreateChannel(deps, tx, realm, creator, { name, subscriberIds, announce: false, inviteOnly: false, isWebPublic: false, isDefaultStream: false, groupSettings: {} }));
    const generic: BenchChannel[] = [];
    for (let k = 0; k < shape.channels - 2; k++) generic.push(await create(`channel-${k}`, founders(users, k)));
    return { generic, everyone: await create("everyone", []), hundred: await create("hundred", []) };
  });
  return { realmId, users, ...channels };
}

/** mulberry32: a small seeded PRNG, so every run (and both stores) load the same text. */
function prng(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}

/** 2,000 made-up words plus a few real ones: each word lands in about 0.7% of messages. */
const VOCABULARY = [...Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}${"aeiou"[i % 5]}x`), SEARCH_WORD, "release", "database", "lunch", "meeting"];

/** `count` messages of history; then the planner's statistics are refreshed. */
export async function seedHistory(store: Store, org: BenchOrg, count: number): Promise<void> {
  const random = prng(42);
  const make = (i: number) => {
    const k = random(2) === 0 ? 0 : random(org.generic.length);
    const topic = k === 0 && random(5) === 0 ? BUSY_TOPIC : `topic ${random(100)}`;
    const words = Array.from({ length: 8 + random(12) }, () => VOCABULARY[random(VOCABULARY.length)]);
    const from = founders(org.users, k);
    return { senderId: from[random(from.length)], recipientId: org.generic[k].recipientId, topic, content: words.join(" "), dateSent: NOW + i };
  };
  await transaction(store, (tx) => bulkInsertMessages(tx, org.realmId, count, make));
  await transaction(store, analyze);
}

async function subscribe(tx: Tx, channel: BenchChannel, userIds: number[]): Promise<void> {
  await subscribeUsers(tx, channel.recipientId, userIds, (userId) => channelColor(channel.id, userId));
}

/** Everyone's later subscriptions and the scenario channels' subscribers. */
export async function subscribeOrg(store: Store, org: BenchOrg, shape: OrgShape): Promise<void> {
  await transaction(store, async (tx) => {
    const byChannel = org.generic.map((): number[] => []);
    org.users.forEach((u, i) => {
      for (let j = 0; j < shape.subsPerUser; j++) byChannel[(i * 7 + j * 13) % org.generic.length].push(u.id);
    });
    for (const [k, channel] of org.generic.entries()) {
      const already = new Set(founders(org.users, k));
      await subscribe(tx, channel, [...new Set(byChannel[k])].filter((id) => !already.has(id)));
    }
    const sender = org.users[ROLES.sender].id;
    await subscribe(tx, org.everyone, [sender, ...pollers(org, shape).map((u) => u.id)]);
    await subscribe(tx, org.hundred, org.users.slice(ROLES.sender, ROLES.sender + 100).map((u) => u.id));
  });
  await transaction(store, analyze);
}

export function pollers(org: BenchOrg, shape: OrgShape): BenchUser[] {
  return org.users.slice(org.users.length - shape.pollers);
}
