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
import { describe, it } from "node:test";
import { checkIntegrity } from "../../src/store/integrity.js";
import { ApiClient, eventually, startServer, useCrashWorld } from "../helpers/server-process.js";
import { STORE_KINDS } from "../helpers/stores.js";

const nowSeconds = () => Math.floor(Date.now() / 1000);

for (const kind of STORE_KINDS) {
  describe(`scheduled messages through SIGKILL [${kind}]`, () => {
    const w = useCrashWorld(kind, "parley-sched-crash-");

    const row = (id: number) => w.store.db.selectFrom("scheduled_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const copies = async (content: string) => (await w.store.db.selectFrom("messages").select("id").where("content", "=", content).execute()).length;

    it("sends each scheduled message exactly once across SIGKILLs before and after its time", async () => {
      w.server = await startServer(w.port, w.env);
      const api = new ApiClient(w.port, w.owner.email, w.owner.api_key);
      const channel = await api.call("POST", "/channels/create", { name: "crash", subscribers: [w.owner.user_id, w.member.user_id] });
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
      assert.deepEqual((await w.server.stop("SIGKILL")).signal, "SIGKILL");
      assert.equal((await row(waiting)).delivered, false);
      assert.equal(await copies("sent before the kill"), 1);

      // Its time passes while no server runs.
      await w.store.db.updateTable("scheduled_messages").set({ scheduled_timestamp: nowSeconds() - 1 }).where("id", "=", waiting).execute();
      w.server = await startServer(w.port, w.env);
      await eventually("the overdue message is sent at start", async () => (await row(waiting)).delivered);
      assert.equal(await copies("due while the server was down"), 1);
      assert.equal(await copies("sent before the kill"), 1, "not sent again after the restart");
      const delivered = await row(waiting);
      const message = await new ApiClient(w.port, w.member.email, w.member.api_key).call("GET", `/messages/${delivered.delivered_message_id}`);
      assert.equal(message.status, 200, JSON.stringify(message.body));
      assert.ok(message.body.message.timestamp >= Number(delivered.scheduled_timestamp), "dated when it was sent");
      assert.deepEqual((await api.call("GET", "/scheduled_messages")).body.scheduled_messages, []);

      // And once more: killed again right away, nothing is sent twice.
      assert.deepEqual((await w.server.stop("SIGKILL")).signal, "SIGKILL");
      w.server = await startServer(w.port, w.env);
      const marker = await schedule("marker after the second restart", nowSeconds() + 4);
      await eventually("the scheduler of the new process runs", async () => (await row(marker)).delivered);
      for (const content of ["sent before the kill", "due while the server was down", "marker after the second restart"]) assert.equal(await copies(content), 1, content);
      assert.deepEqual(await checkIntegrity(w.store), []);
    });
  });
}
