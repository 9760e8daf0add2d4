/**
 * Missed-message emails survive crashes (issue 19, "Done when"), on a real server process over
 * loopback, on SQLite always and on PostgreSQL when TEST_DATABASE_URL is set: a DM is sent, the
 * server is SIGKILLed before the email goes; after a restart exactly one email is written, and
 * another SIGKILL and restart send it no second time. Time passing while no server runs is
 * simulated by moving the pending row's due time into the past in the store; waits are for
 * observed states (polled with a generous deadline), never for a fixed time.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ApiClient, eventually, startServer, useCrashWorld } from "../helpers/server-process.js";
import { STORE_KINDS } from "../helpers/stores.js";

const nowSeconds = () => Math.floor(Date.now() / 1000);

for (const kind of STORE_KINDS) {
  describe(`missed-message emails through SIGKILL [${kind}]`, () => {
    const w = useCrashWorld(kind, "parley-notify-crash-");

    const mails = () => {
      try {
        return readdirSync(join(w.env.PARLEY_VAR_DIR, "mail")).filter((f) => f.endsWith(".eml"));
      } catch {
        return [];
      }
    };
    const pending = () => w.store.db.selectFrom("pending_notifications").selectAll().where("kind", "=", "email").execute();
    const restart = async () => {
      assert.deepEqual((await w.server!.stop("SIGKILL")).signal, "SIGKILL");
      w.server = await startServer(w.port, w.env);
    };

    it("sends the email of a DM exactly once across SIGKILLs", async () => {
      w.server = await startServer(w.port, w.env);
      const api = new ApiClient(w.port, w.owner.email, w.owner.api_key);
      const dm = (content: string) => api.call("POST", "/messages", { type: "private", to: JSON.stringify([w.member.user_id]), content });
      assert.equal((await dm("are you there?")).status, 200);
      await eventually("the email is pending", async () => (await pending()).length === 1);
      assert.deepEqual((await w.server.stop("SIGKILL")).signal, "SIGKILL");
      assert.deepEqual(mails(), [], "killed before the batching period ended");

      // The batching period passes while no server runs.
      await w.store.db.updateTable("pending_notifications").set({ due_at: nowSeconds() - 1 }).execute();
      w.server = await startServer(w.port, w.env);
      await eventually("the overdue email is sent at start", async () => mails().length === 1 && (await pending()).length === 0);

      await restart();
      // A marker proves the new process's worker runs: a second DM, with a one-second batching period.
      const settings = await new ApiClient(w.port, w.member.email, w.member.api_key).call("PATCH", "/settings", { email_notifications_batching_period_seconds: 1 });
      assert.equal(settings.status, 200, JSON.stringify(settings.body));
      assert.equal((await dm("marker")).status, 200);
      await eventually("the marker's email is sent", async () => mails().length === 2 && (await pending()).length === 0);
      assert.equal(mails().length, 2, "the first email was not sent again");
    });
  });
}
