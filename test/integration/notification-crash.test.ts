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
import { after, before, describe, it } from "node:test";
import type { Store } from "../../src/store/db.js";
import { ApiClient, freePort, manageJson, openProcessStore, startServer, type Account, type ProcessStore, type ServerProcess } from "../helpers/server-process.js";
import { STORE_KINDS } from "../helpers/stores.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function eventually(what: string, check: () => Promise<boolean> | boolean, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`never happened: ${what}`);
    await sleep(100);
  }
}

for (const kind of STORE_KINDS) {
  describe(`missed-message emails through SIGKILL [${kind}]`, () => {
    let shared: ProcessStore;
    let env: Record<string, string>;
    let store: Store;
    let port: number;
    let server: ServerProcess | null = null;
    let owner: Account;
    let member: Account;

    before(async () => {
      shared = await openProcessStore(kind, "parley-notify-crash-");
      ({ env, store, owner } = shared);
      member = await manageJson<Account>(env, ["create-user", "--realm", "", "--email", "member@crash.test", "--full-name", "Member", "--password", "pw-member-1"]);
      port = await freePort();
    });

    after(async () => {
      await server?.stop("SIGKILL");
      await shared.close();
    });

    const mails = () => {
      try {
        return readdirSync(join(env.PARLEY_VAR_DIR, "mail")).filter((f) => f.endsWith(".eml"));
      } catch {
        return [];
      }
    };
    const pending = () => store.db.selectFrom("pending_notifications").selectAll().where("kind", "=", "email").execute();

    it("sends the email of a DM exactly once across SIGKILLs", async () => {
      server = await startServer(port, env);
      const api = new ApiClient(port, owner.email, owner.api_key);
      const sent = await api.call("POST", "/messages", { type: "private", to: JSON.stringify([member.user_id]), content: "are you there?" });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      await eventually("the email is pending", async () => (await pending()).length === 1);
      assert.deepEqual((await server.stop("SIGKILL")).signal, "SIGKILL");
      server = null;
      assert.deepEqual(mails(), [], "killed before the batching period ended");

      // The batching period passes while no server runs.
      await store.db.updateTable("pending_notifications").set({ due_at: nowSeconds() - 1 }).execute();
      server = await startServer(port, env);
      await eventually("the overdue email is sent at start", async () => mails().length === 1 && (await pending()).length === 0);

      assert.deepEqual((await server.stop("SIGKILL")).signal, "SIGKILL");
      server = await startServer(port, env);
      // A marker proves the new process's worker runs: a second DM, with a one-second batching period.
      const settings = await new ApiClient(port, member.email, member.api_key).call("PATCH", "/settings", { email_notifications_batching_period_seconds: 1 });
      assert.equal(settings.status, 200, JSON.stringify(settings.body));
      const marker = await api.call("POST", "/messages", { type: "private", to: JSON.stringify([member.user_id]), content: "marker" });
      assert.equal(marker.status, 200);
      await eventually("the marker's email is sent", async () => mails().length === 2 && (await pending()).length === 0);
      assert.equal(mails().length, 2, "the first email was not sent again");
    });
  });
}
