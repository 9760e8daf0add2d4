/**
 * The schedule survives crashes (issue 17, "Done when"), on a real server process over loopback,
 * on SQLite always and on PostgreSQL when TEST_DATABASE_URL is set:
 * - a message delivered at its time, then SIGKILL: after a restart it is not sent again;
 * - SIGKILL before a message's time: after a restart past its time it is sent, once, at start.
 * Time passing while no server runs is simulated by moving the waiting row's time into the past in
 * the store (a second ago, within Zulip's ten-minute late cutoff); waits are for observed states
 * (polled with a generous deadline), never for a fixed time.
 */
import assert from "node:assert/strict";
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
  type ProcessStore,
  type ServerProcess,
} from "../helpers/server-process.js";
import { STORE_KINDS } from "../helpers/stores.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Polls `check` until it holds; fails after `deadlineMs` (a deadline for a hang, not a timing assertion). */
async function eventually(what: string, check: () => Promise<boolean>, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`never happened: ${what}`);
    await sleep(100);
  }
}

for (const kind of STORE_KINDS) {
  describe(`scheduled messages through SIGKILL [${kind}]`, () => {
    let shared: ProcessStore;
    let env: Record<string, string>;
    let store: Store;
    let port: number;
    let server: ServerProcess | null = null;
    let owner: Account;
    let member: Account;

    before(async () => {
      shared = await openProcessStore(kind, "parley-sched-crash-");
      ({ env, store, owner } = shared);
      member = await manageJson<Account>(env, ["create-user", "--realm", "", "--email", "member@crash.test", "--full-name", "Member", "--password", "pw-member-1"]);
      port = await freePort();
    });

    after(async () => {
      await server?.stop("SIGKILL");
      await shared.close();
    });

    const row = (id: number) => store.db.selectFrom("scheduled_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const copies = async (content: string) => (await store.db.selectFrom("messages").select("id").where("content", "=", content).execute()).length;

    it("sends each scheduled message exactly once across SIGKILLs before and after its time", async () => {
      server = await startServer(port, env);
      const api = new ApiClient(port, owner.email, owner.api_key);
      const channel = await api.call("POST", "/channels/create", { name: "crash", subscribers: [owner.user_id, member.user_id] });
      assert.equal(channel.status, 200, JSON.stringify(channel.body));
      const schedule = async (content: string, at: number) => {
        const res = await api.call("POST", "/scheduled_messages", { type: "stream", to: channel.body.id, topic: "later", content, scheduled_delivery_timestamp: at });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.scheduled_message_id as number;
      };

      // Delivered at its time by the running server, then the process is killed. (A few seconds
      // ahead, so that the time is still in the future when the request arrives.)
      const sent = await schedule("sent before the kill", nowSeconds() + 4);
      // Not due for an hour: the kill comes before its time.
      const waiting = await schedule("due while the server was down", nowSeconds() + 3600);
      await eventually("the first message is delivered at its time", async () => (await row(sent)).delivered);
      assert.deepEqual((await server.stop("SIGKILL")).signal, "SIGKILL");
      server = null;
      assert.equal((await row(waiting)).delivered, false);
      assert.equal(await copies("sent before the kill"), 1);

      // Its time passes while no server runs.
      await store.db.updateTable("scheduled_messages").set({ scheduled_timestamp: nowSeconds() - 1 }).where("id", "=", waiting).execute();
      server = await startServer(port, env);
      await eventually("the overdue message is sent at start", async () => (await row(waiting)).delivered);
      assert.equal(await copies("due while the server was down"), 1);
      assert.equal(await copies("sent before the kill"), 1, "not sent again after the restart");
      const delivered = await row(waiting);
      const message = await new ApiClient(port, member.email, member.api_key).call("GET", `/messages/${delivered.delivered_message_id}`);
      assert.equal(message.status, 200, JSON.stringify(message.body));
      assert.ok(message.body.message.timestamp >= Number(delivered.scheduled_timestamp), "dated when it was sent");
      assert.deepEqual((await api.call("GET", "/scheduled_messages")).body.scheduled_messages, []);

      // And once more: killed again right away, nothing is sent twice.
      assert.deepEqual((await server.stop("SIGKILL")).signal, "SIGKILL");
      server = await startServer(port, env);
      const marker = await schedule("marker after the second restart", nowSeconds() + 4);
      await eventually("the scheduler of the new process runs", async () => (await row(marker)).delivered);
      for (const content of ["sent before the kill", "due while the server was down", "marker after the second restart"]) assert.equal(await copies(content), 1, content);
      assert.deepEqual(await checkIntegrity(store), []);
    });
  });
}
