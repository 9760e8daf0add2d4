/**
 * Crash safety (issue 9, item 4) on a real server process over loopback:
 * - SIGKILL in the middle of 20 concurrent send loops, then a restart on the same store: every
 *   message that was acknowledged is there exactly once (with its recipients' rows), nothing is
 *   duplicated, and the store passes its integrity check (store/integrity.ts);
 * - SIGTERM: a parked GET /events is answered at once, a request still arriving finishes, the
 *   process exits 0, and after a restart on the same port the same queue_id still works and holds
 *   the event of the message sent during the drain.
 * On SQLite always, on PostgreSQL when TEST_DATABASE_URL is set (a fresh database).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Store } from "../../src/store/db.js";
import { checkIntegrity } from "../../src/store/integrity.js";
import {
  ApiClient,
  freePort,
  manageJson,
  openProcessStore,
  startServer,
  type Account,
  type ApiReply,
  type ProcessStore,
  type ServerProcess,
} from "../helpers/server-process.js";
import { STORE_KINDS } from "../helpers/stores.js";

const LOOPS = 20;
const SENDS_PER_LOOP = 100;
/** The kill comes once this many sends have been acknowledged, with about LOOPS more in flight. */
const KILL_AFTER_ACKS = 120;

/** A POST whose body arrives in two parts: in flight from the first write until `finish()`. */
function slowPost(port: number, account: Account, path: string, params: Record<string, string>) {
  const body = Buffer.from(new URLSearchParams(params).toString());
  const req = request({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: `/api/v1${path}`,
    agent: false,
    headers: {
      authorization: "Basic " + Buffer.from(`${account.email}:${account.api_key}`).toString("base64"),
      "content-type": "application/x-www-form-urlencoded",
      "content-length": body.length,
    },
  });
  const response = new Promise<ApiReply>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", reject);
  });
  req.write(body.subarray(0, 8));
  return {
    finish(): Promise<ApiReply> {
      req.end(body.subarray(8));
      return response;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const kind of STORE_KINDS) {
  describe(`crash safety on a real process [${kind}]`, () => {
    let shared: ProcessStore;
    let env: Record<string, string>;
    let store: Store;
    let port: number;
    let server: ServerProcess | null = null;
    let owner: Account;
    let member: Account;

    before(async () => {
      shared = await openProcessStore(kind, "parley-crash-");
      ({ env, store, owner } = shared);
      port = await freePort();
      // The realm must exist before the first start (or the server creates one); the rest overlaps.
      [member, server] = await Promise.all([
        manageJson<Account>(env, ["create-user", "--realm", "", "--email", "member@crash.test", "--full-name", "Member", "--password", "pw-member-1"]),
        startServer(port, env),
      ]);
    });

    after(async () => {
      await server?.stop("SIGKILL");
      await shared.close();
    });

    it("keeps every acknowledged message exactly once through a SIGKILL under concurrent sends", async (t) => {
      server ??= await startServer(port, env);
      const api = new ApiClient(port, owner.email, owner.api_key);
      const created = await api.call("POST", "/channels/create", { name: "crash", subscribers: [owner.user_id, member.user_id] });
      assert.equal(created.status, 200, JSON.stringify(created.body));

      const acked = new Map<string, number>();
      let attempted = 0;
      let killed = false;
      const loop = async (n: number) => {
        for (let seq = 0; seq < SENDS_PER_LOOP && !killed; seq++) {
          const content = `crash ${n}-${seq}`;
          let res: ApiReply;
          attempted++;
          try {
            res = await api.call("POST", "/messages", { type: "stream", to: "crash", topic: `loop ${n}`, content });
          } catch (e) {
            if (killed) return;
            throw e;
          }
          assert.equal(res.status, 200, JSON.stringify(res.body));
          acked.set(content, res.body.id);
        }
      };
      const killer = async () => {
        while (acked.size < KILL_AFTER_ACKS) await sleep(5);
        killed = true;
        return (server as ServerProcess).stop("SIGKILL");
      };
      const [exit] = await Promise.all([killer(), ...Array.from({ length: LOOPS }, (_, n) => loop(n))]);
      assert.equal(exit.signal, "SIGKILL");
      const unanswered = attempted - acked.size;

      server = await startServer(port, env);
      const restarted = new ApiClient(port, owner.email, owner.api_key);
      await Promise.all(
        [...acked].map(async ([content, id]) => {
          const res = await restarted.call("GET", `/messages/${id}`);
          assert.equal(res.status, 200, `acknowledged message ${id} lost: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.raw_content, content);
        }),
      );
      const rows = await store.db.selectFrom("messages").select(["id", "content"]).where("content", "like", "crash %").execute();
      const copies = new Map<string, number>();
      for (const row of rows) copies.set(row.content, (copies.get(row.content) ?? 0) + 1);
      assert.deepEqual([...copies].filter(([, n]) => n > 1), [], "no message stored twice");
      t.diagnostic(`${acked.size} sends acknowledged before the kill, ${unanswered} unanswered; ${rows.length} stored`);
      const recipients = await store.db
        .selectFrom("user_messages")
        .select(["message_id", (eb) => eb.fn.countAll<number>().as("n")])
        .where("message_id", "in", rows.map((r) => r.id))
        .groupBy("message_id")
        .execute();
      assert.equal(recipients.length, rows.length, "every stored message has its recipients' rows");
      for (const r of recipients) assert.equal(Number(r.n), 2, `message ${r.message_id}`);
      assert.deepEqual(await checkIntegrity(store), []);
    });

    it("on SIGTERM answers parked polls, finishes in-flight requests, exits 0 and keeps the queues", async () => {
      server ??= await startServer(port, env);
      const memberApi = new ApiClient(port, member.email, member.api_key);
      const registered = await memberApi.call("POST", "/register", { event_types: ["message"] });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const queueId = registered.body.queue_id as string;
      const parked = memberApi.call("GET", "/events", { queue_id: queueId, last_event_id: registered.body.last_event_id });
      const draining = slowPost(port, owner, "/messages", { type: "stream", to: "crash", topic: "drain", content: "sent while draining" });
      await sleep(300);

      const start = Date.now();
      server.child.kill("SIGTERM");
      const polled = await parked;
      assert.deepEqual([polled.status, polled.body.events], [200, []]);
      assert.ok(Date.now() - start < 10_000, "answered at once, not at the heartbeat");
      const sent = await draining.finish();
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.deepEqual(await server.exited, { code: 0, signal: null });
      const saved = join(env.PARLEY_VAR_DIR, `event-queues-${port}.json`);
      assert.ok(existsSync(saved) && readFileSync(saved, "utf8").includes(queueId));

      server = await startServer(port, env);
      assert.equal(existsSync(saved), false, "the saved queues are consumed, so a later crash cannot rewind them");
      const resumed = await memberApi.call("GET", "/events", { queue_id: queueId, last_event_id: registered.body.last_event_id, dont_block: true });
      assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
      assert.deepEqual(
        resumed.body.events.map((e: { type: string; message?: { id: number } }) => [e.type, e.message?.id]),
        [["message", sent.body.id]],
      );
      assert.deepEqual(await server.stop("SIGTERM"), { code: 0, signal: null });
      server = null;
      assert.deepEqual(await checkIntegrity(store), []);
    });
  });
}
