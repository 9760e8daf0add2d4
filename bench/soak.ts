/**
 * Soak test (issue 9, item 7): `npm run soak -- --minutes N [--clients 200] [--think-ms 2000]
 * [--database-url URL]`. Starts a real Parley process (rate limiting off) on a temporary SQLite
 * store, or on the given empty database, seeds one realm with a user per client and ten channels
 * (each user in two), then runs the clients of soak-client.ts for N minutes. At the end it lets the
 * queues drain and checks every acknowledged message: its event reached every recipient's queue,
 * and its sender can fetch it. Reports errors, lost messages (both must be 0: the exit code says
 * whether they were), latencies per action, and the server's RSS sampled from /proc.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkCreateRealm } from "../src/actions/realm/realms.js";
import { checkCreateUser } from "../src/actions/users/users.js";
import { openStore, transaction } from "../src/store/db.js";
import { migrateToLatest } from "../src/store/migrate.js";
import { getRealmById } from "../src/store/realms.js";
import { ApiClient, freePort, startServer } from "../test/helpers/server-process.js";
import { SoakClient, SoakStats, type Action, type SoakChannel } from "./soak-client.js";

const CHANNELS = 10;
const DRAIN_MS = 30_000;
const RSS_SAMPLE_MS = 5_000;
const FETCH_BATCH = 100;

const { values: args } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, clients: { type: "string", default: "200" }, "think-ms": { type: "string", default: "2000" }, "database-url": { type: "string" } },
});
const MINUTES = Number(args.minutes);
const CLIENTS = Number(args.clients);
const THINK_MS = Number(args["think-ms"]);

interface User {
  id: number;
  email: string;
  apiKey: string;
}

/** The realm's owner plus CLIENTS-1 members, written straight into the store before the server starts. */
async function seedUsers(databaseUrl: string): Promise<User[]> {
  const store = openStore(databaseUrl);
  try {
    await migrateToLatest(store);
    const now = Math.floor(Date.now() / 1000);
    const { realmId, owner } = await checkCreateRealm(store, { subdomain: "", name: "Soak", ownerEmail: "user0@soak.test", ownerName: "User 0", ownerPassword: "soak-password-0" }, now);
    const users: User[] = [{ id: owner.userId, email: owner.email, apiKey: owner.apiKey }];
    await transaction(store, async (tx) => {
      const realm = (await getRealmById(tx, realmId))!;
      for (let i = 1; i < CLIENTS; i++) {
        const created = await checkCreateUser(tx, realm, { email: `user${i}@soak.test`, fullName: `User ${i}`, password: null }, now);
        users.push({ id: created.userId, email: created.email, apiKey: created.apiKey });
      }
    });
    return users;
  } finally {
    await store.close();
  }
}

function rssMib(pid: number): number {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return NaN;
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
  return kb ? Number(kb[1]) / 1024 : NaN;
}

/** User + system CPU seconds the process has used (fields 14 and 15 of /proc/PID/stat, in ticks). */
function cpuSeconds(pid: number): number {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return NaN;
  const fields = readFileSync(stat, "utf8").split(") ")[1].split(" ");
  const TICKS_PER_SECOND = 100;
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Message ids (of `ids`) that `api`'s user cannot fetch, asked in batches through GET /messages. */
async function unfetchable(api: ApiClient, ids: number[]): Promise<number[]> {
  const missing: number[] = [];
  for (let i = 0; i < ids.length; i += FETCH_BATCH) {
    const batch = ids.slice(i, i + FETCH_BATCH);
    const res = await api.call("GET", "/messages", { message_ids: batch });
    const found = new Set(res.status === 200 ? (res.body.messages as Array<{ id: number }>).map((m) => m.id) : []);
    missing.push(...batch.filter((id) => !found.has(id)));
  }
  return missing;
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "parley-soak-"));
  const databaseUrl = args["database-url"] ?? `sqlite:${join(dir, "parley.sqlite3")}`;
  const store = databaseUrl.startsWith("sqlite:") ? "SQLite" : "PostgreSQL";
  console.log(`soak: ${CLIENTS} clients for ${MINUTES} min on ${store}, think time uniform 0-${2 * THINK_MS} ms`);
  const users = await seedUsers(databaseUrl);
  const port = await freePort();
  const server = await startServer(port, { DATABASE_URL: databaseUrl, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "uploads"), EXTERNAL_HOST: "soak.test" });
  const pid = server.child.pid as number;
  try {
    const apis = users.map((u) => new ApiClient(port, u.email, u.apiKey));
    const channels: SoakChannel[] = [];
    for (let c = 0; c < CHANNELS; c++) {
      const subscribers = users.filter((_, i) => i % CHANNELS === c || (i + 3) % CHANNELS === c).map((u) => u.id);
      const res = await apis[0].call("POST", "/channels/create", { name: `soak-${c}`, subscribers });
      if (res.status !== 200) throw new Error(`creating soak-${c}: ${JSON.stringify(res.body)}`);
      channels.push({ id: res.body.id, name: `soak-${c}`, subscribers });
    }
    const stats = new SoakStats();
    const everyone = users.map((u) => u.id);
    const clients = users.map((u, i) => new SoakClient(u.id, apis[i], channels.filter((ch) => ch.subscribers.includes(u.id)), everyone, stats));
    await Promise.all(clients.map((c) => c.register()));

    const rss: Array<[number, number]> = [[0, rssMib(pid)]];
    const started = Date.now();
    const sampler = setInterval(() => rss.push([(Date.now() - started) / 1000, rssMib(pid)]), RSS_SAMPLE_MS);
    const cpuBefore = cpuSeconds(pid);
    const pollers = clients.map((c) => c.poll());
    const deadline = started + MINUTES * 60_000;
    const progress = setInterval(() => console.log(`  ${((Date.now() - started) / 60_000).toFixed(1)} min: ${stats.sent.size} sent, ${stats.errors} errors, RSS ${rssMib(pid).toFixed(0)} MiB`), 60_000);
    await Promise.all(clients.map((c) => c.act(() => Date.now() >= deadline, THINK_MS)));
    clearInterval(progress);
    const seconds = (Date.now() - started) / 1000;
    const serverCpu = cpuSeconds(pid) - cpuBefore;

    const drainUntil = Date.now() + DRAIN_MS;
    while (stats.pending.size > 0 && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 100));
    clearInterval(sampler);
    rss.push([(Date.now() - started) / 1000, rssMib(pid)]);
    for (const c of clients) c.stopPolling();
    await Promise.all(pollers);

    const bySender = new Map<number, number[]>();
    for (const [id, sender] of stats.sent) bySender.set(sender, [...(bySender.get(sender) ?? []), id]);
    const missing = (await Promise.all(users.map((u, i) => unfetchable(apis[i], bySender.get(u.id) ?? [])))).flat();
    const undelivered = [...stats.pending.keys()];
    const lost = new Set([...undelivered, ...missing]).size;
    const exit = await server.stop("SIGTERM");

    const total = [...stats.durations.values()].reduce((n, d) => n + d.length, 0);
    console.log(`\nrequests: ${total} over ${seconds.toFixed(0)} s of load (${(total / seconds).toFixed(0)}/s, polls during the drain included)`);
    for (const action of ["send", "fetch", "list", "react", "typing", "poll"] as Action[]) {
      const d = [...(stats.durations.get(action) ?? [])].sort((a, b) => a - b);
      const note = action === "poll" ? "   (long-polls: held until an event comes)" : "";
      console.log(`  ${action.padEnd(7)} ${String(d.length).padStart(7)}   p50 ${quantile(d, 0.5).toFixed(0)} ms   p95 ${quantile(d, 0.95).toFixed(0)} ms   p99 ${quantile(d, 0.99).toFixed(0)} ms${note}`);
    }
    console.log(`server CPU: ${serverCpu.toFixed(0)} s over ${seconds.toFixed(0)} s of load (${((100 * serverCpu) / seconds).toFixed(0)}% of one core)`);
    console.log(`errors: ${stats.errors}${stats.errorSamples.map((s) => `\n  ${s}`).join("")}`);
    console.log(`messages: ${stats.sent.size} acknowledged; lost ${lost} (${undelivered.length} not delivered to every recipient's queue, ${missing.length} not fetchable)`);
    const values = rss.map(([, mib]) => mib);
    const tail = values.slice(-Math.max(2, Math.floor(values.length / 4)));
    const head = values.slice(1, 1 + tail.length);
    console.log(
      `server RSS: ${values[0].toFixed(0)} MiB before load, ${mean(head).toFixed(0)} MiB over the first quarter, ${mean(tail).toFixed(0)} MiB over the last,` +
        ` peak ${Math.max(...values).toFixed(0)} MiB; growth first → last quarter ${(mean(tail) - mean(head)).toFixed(1)} MiB`,
    );
    console.log(`server exit on SIGTERM: ${exit.code ?? exit.signal}`);
    return stats.errors === 0 && lost === 0 && exit.code === 0 ? 0 : 1;
  } finally {
    await server.stop("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
