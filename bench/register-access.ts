/**
 * POST /register time for a member and for a guest at the S8 size (5,000 users, 500 channels,
 * 10 channels per user), with can_access_all_users_group at role:everyone and at role:members
 * (issue 16, F6). In-process (buildApp + inject), SQLite, no load: the median and p90 of RUNS
 * registers after WARMUP ones, per case, in wall-clock time and in this process's CPU time (the
 * steadier of the two on a busy machine: SQLite runs in this thread, so the CPU time is all of it). The guest shares its 10 channels with about a thousand
 * users, so a limited register answers about 4,000 "Unknown user" placeholders, or leaves them out
 * under user_list_incomplete.
 *
 *   npx tsx bench/register-access.ts [--users 5000] [--runs 30]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildApp } from "../src/app.js";
import { openStore, transaction } from "../src/store/db.js";
import { getSystemGroupByName } from "../src/store/groups.js";
import { updateRealm } from "../src/store/realms.js";
import { updateUser } from "../src/store/users.js";
import { benchDeps } from "./lib/in-process.js";
import { ROLES, seedOrg, subscribeOrg, type BenchUser } from "./lib/seed.js";
import { createStore } from "./lib/stores.js";
import { CAPABILITIES } from "./scenarios/s8-register.js";

const { values } = parseArgs({ options: { users: { type: "string", default: "5000" }, runs: { type: "string", default: "30" } } });
const USERS = Number(values.users);
const RUNS = Number(values.runs);
const WARMUP = 5;
const HOST = "bench.local:9991";
const dir = mkdtempSync(join(tmpdir(), "parley-register-access-"));
try {
  const handle = await createStore("sqlite", dir, "org");
  const store = openStore(handle.url);
  const shape = { users: USERS, channels: Math.max(20, USERS / 10), subsPerUser: 10, pollers: 0 };
  const org = await seedOrg(store, shape, HOST);
  await subscribeOrg(store, org, shape);
  const member = org.users[ROLES.registrant];
  const guest = org.users[ROLES.registrant + 1];
  // Role 600: guest (spec conventions 7); only the role matters to what register answers here.
  await transaction(store, (tx) => updateUser(tx, guest.id, { role: 600 }));
  const app = await buildApp(benchDeps(store, HOST), { logger: false });
  const setAccess = async (group: string) => {
    const id = (await transaction(store, (tx) => getSystemGroupByName(tx, org.realmId, group))).id;
    await transaction(store, (tx) => updateRealm(tx, org.realmId, { can_access_all_users_group_id: id }));
  };
  const register = async (user: BenchUser, capabilities: Record<string, boolean>) => {
    const auth = "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64");
    const payload = new URLSearchParams({ apply_markdown: "true", client_gravatar: "true", slim_presence: "true", client_capabilities: JSON.stringify(capabilities) });
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const res = await app.inject({ method: "POST", url: "/api/v1/register", headers: { host: HOST, authorization: auth, "content-type": "application/x-www-form-urlencoded" }, payload: payload.toString() });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const used = process.cpuUsage(cpu);
    if (res.statusCode !== 200) throw new Error(`register: ${res.statusCode} ${res.body}`);
    return { ms, cpuMs: (used.user + used.system) / 1000, users: (res.json().realm_users as unknown[]).length };
  };
  const measure = async (label: string, user: BenchUser, capabilities: Record<string, boolean>) => {
    for (let i = 0; i < WARMUP; i++) await register(user, capabilities);
    const times: number[] = [];
    const cpus: number[] = [];
    let users = 0;
    for (let i = 0; i < RUNS; i++) ({ ms: times[i], cpuMs: cpus[i], users } = await register(user, capabilities));
    const at = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(1).padStart(6);
    console.log(`${label.padEnd(44)} p50 ${at(times, 0.5)} ms  p90 ${at(times, 0.9)} ms  cpu p50 ${at(cpus, 0.5)} ms  realm_users ${users}`);
  };
  console.log(`${USERS} users, ${shape.channels} channels, ${RUNS} registers per case after ${WARMUP} warm-ups (SQLite, in-process)`);
  await setAccess("role:everyone");
  await measure("member, setting role:everyone", member, CAPABILITIES);
  await measure("guest, setting role:everyone", guest, CAPABILITIES);
  await setAccess("role:members");
  await measure("member, setting role:members", member, CAPABILITIES);
  await measure("guest, setting role:members (placeholders)", guest, CAPABILITIES);
  await measure("guest, role:members, user_list_incomplete", guest, { ...CAPABILITIES, user_list_incomplete: true });
  await app.close();
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
