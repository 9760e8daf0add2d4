/**
 * Data exports from the API (Zulip's export-realm, get-realm-exports, get-realm-export-consents;
 * FL 295, 304, 430, 449) on every store: the request answers at once, the archive is written in
 * the background into upload storage, the administrators hear of it (realm_export events) and
 * download it from its export_url, and `manage import-realm` reads that very file back. Then the
 * refusals: non-administrators, unknown kinds, the consent rules, the owner-only kind, one export
 * at a time, five a week; the consents list and the realm_export_consent event.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, it } from "node:test";
import { importRealmArchive } from "../../src/actions/realm-export/import-archive.js";
import { transaction } from "../../src/store/db.js";
import { failRealmExports, insertRealmExport } from "../../src/store/realm-exports.js";
import { eventsOf } from "../helpers/channels.js";
import { basicAuth } from "../helpers/http.js";
import { assertError } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, type UploadRealm } from "../helpers/uploads.js";

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const kind of STORE_KINDS) {
  describe(`data exports [${kind}]`, () => {
    let t: UploadRealm;
    let dir: string;
    beforeEach(async () => {
      t = await createUploadRealm(kind);
      dir = mkdtempSync(join(tmpdir(), "parley-export-api-"));
    });
    afterEach(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The background job's outcome: GET /export/realm until the export is no longer pending. */
    async function settled(id: number): Promise<Body> {
      for (let i = 0; i < 500; i += 1) {
        const found = ((await t.as("iago").get("/export/realm")).body.exports as Body[]).find((e) => e.id === id)!;
        if (!found.pending) return found;
        await sleep(10);
      }
      throw new Error(`export ${id} still pending`);
    }
    const recordExport = (at: number) =>
      transaction(t.deps.store, (tx) => insertRealmExport(tx, { realm_id: t.realmId, acting_user_id: t.users.iago.id, export_type: "public", date_requested: at }));

    it("writes the archive in the background; administrators hear of it and download it, and it imports", async () => {
      const queue = (await t.as("iago").post("/register", { event_types: JSON.stringify(["realm_export"]) })).body;
      assert.equal((await t.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "Verona" }]), principals: JSON.stringify([t.users.hamlet.id]) })).status, 200);
      assert.equal((await t.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "t", content: "exported words" })).status, 200);
      const created = await t.as("iago").post("/export/realm", { export_type: "public" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.id as number;
      const done = await settled(id);
      assert.deepEqual({ ...done, export_url: typeof done.export_url }, {
        id, acting_user_id: t.users.iago.id, export_time: t.clock.now(), deleted_timestamp: null, failed_timestamp: null,
        export_url: "string", pending: false, export_type: "public",
      });
      // Administrators only, and every change: requested (pending), then finished.
      const events = eventsOf(t, "realm_export");
      assert.deepEqual(events.map((e) => (e.event.exports as Body[])[0].pending), [true, false]);
      assert.deepEqual(events[0].userIds.sort(), [t.users.desdemona.id, t.users.iago.id].sort());
      const polled = await t.as("iago").get("/events", { queue_id: queue.queue_id, last_event_id: -1, dont_block: true });
      assert.deepEqual((polled.body.events as Body[]).map((e) => e.type), ["realm_export", "realm_export"]);

      const url = new URL(done.export_url as string);
      assert.match(url.pathname, new RegExp(`^/user_avatars/exports/${t.realmId}/[^/]+/parley-export-zulip-\\d+\\.tar\\.gz$`));
      const download = (who: "desdemona" | "hamlet") => t.app.inject({ method: "GET", url: url.pathname, headers: { host: t.host, authorization: basicAuth(t.users[who]) } });
      assert.equal((await download("hamlet")).statusCode, 404);
      const archive = await download("desdemona");
      assert.equal(archive.statusCode, 200);
      assert.equal(archive.headers["content-type"], "application/gzip");
      const file = join(dir, "downloaded.tar.gz");
      writeFileSync(file, archive.rawPayload);
      const imported = await importRealmArchive(t.deps.store, t.deps.config, file, { subdomain: "from-api" });
      assert.equal(imported.export_type, "public");
      assert.ok(imported.tables.messages >= 1);
      const contents = await t.deps.store.db.selectFrom("messages").select("content").where("realm_id", "=", imported.realm_id).execute();
      assert.ok(contents.some((m) => m.content === "exported words"));
    });

    it("refuses non-administrators and unknown kinds", async () => {
      assertError(await t.as("hamlet").post("/export/realm", {}), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("shiva").get("/export/realm"), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("polonius").get("/export/realm/consents"), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").post("/export/realm", { export_type: "everything" }), "Invalid export_type", "REQUEST_VARIABLE_INVALID");
      assertError(await t.as("iago").post("/export/realm", { export_type: "1" }), "Invalid export_type", "REQUEST_VARIABLE_INVALID");
      assert.deepEqual((await t.as("iago").get("/export/realm")).body.exports, []);
    });

    it("needs a consenting owner for a consent export, and the owner flag and an owner for one without consent", async () => {
      const consentError = `Make sure at least one Organization Owner is consenting to the export or contact ${t.deps.config.mailFrom} for help.`;
      assertError(await t.as("iago").post("/export/realm", { export_type: "full_with_consent" }), consentError);
      assert.equal((await t.as("desdemona").patch("/settings", { allow_private_data_export: true })).status, 200);
      const consent = await t.as("iago").post("/export/realm", { export_type: "full_with_consent" });
      assert.equal(consent.status, 200, JSON.stringify(consent.body));
      assert.equal((await settled(consent.body.id)).export_type, "full_with_consent");

      assertError(await t.as("iago").post("/export/realm", { export_type: "full_without_consent" }), "Must be an organization owner", "UNAUTHORIZED_PRINCIPAL");
      const flagError = `Full exports without member consent need the organization's owner_full_content_access setting; contact ${t.deps.config.mailFrom} for help.`;
      assertError(await t.as("desdemona").post("/export/realm", { export_type: "full_without_consent" }), flagError);
      const realm = await t.deps.store.db.selectFrom("realms").select("settings").where("id", "=", t.realmId).executeTakeFirstOrThrow();
      const settings = JSON.stringify({ ...JSON.parse(realm.settings), owner_full_content_access: true });
      await t.deps.store.db.updateTable("realms").set({ settings }).where("id", "=", t.realmId).execute();
      assert.equal((await t.as("desdemona").post("/register", { fetch_event_types: JSON.stringify(["realm"]) })).body.realm_owner_full_content_access, true);
      const full = await t.as("desdemona").post("/export/realm", { export_type: "full_without_consent" });
      assert.equal(full.status, 200, JSON.stringify(full.body));
      assert.equal((await settled(full.body.id)).export_type, "full_without_consent");
    });

    it("runs one export at a time per realm, fails one stuck for an hour, and allows five a week", async () => {
      const now = t.clock.now();
      const stuck = await recordExport(now);
      assertError(await t.as("iago").post("/export/realm", {}), "An export of this organization is already in progress.");
      t.clock.seconds += 60 * 60 + 1;
      const listed = ((await t.as("iago").get("/export/realm")).body.exports as Body[]).find((e) => e.id === stuck)!;
      assert.equal(listed.pending, false);
      assert.equal(listed.failed_timestamp, t.clock.now());
      for (let i = 0; i < 3; i += 1) {
        const id = await recordExport(t.clock.now());
        await transaction(t.deps.store, (tx) => failRealmExports(tx, t.realmId, t.clock.now(), "test", { id }));
      }
      const fifth = await t.as("iago").post("/export/realm", {});
      assert.equal(fifth.status, 200, JSON.stringify(fifth.body));
      await settled(fifth.body.id);
      assertError(await t.as("iago").post("/export/realm", {}), "Exceeded rate limit.");
      t.clock.seconds += 7 * 24 * 60 * 60;
      const later = await t.as("iago").post("/export/realm", {});
      assert.equal(later.status, 200);
      await settled(later.body.id);
    });

    it("lists every human's consent and email visibility, and tells administrators when one changes", async () => {
      t.published.length = 0;
      assert.equal((await t.as("hamlet").patch("/settings", { allow_private_data_export: true, email_address_visibility: 3 })).status, 200);
      const consents = (await t.as("iago").get("/export/realm/consents")).body.export_consents as Body[];
      const humans = Object.values(t.users).filter((u) => u.email !== "default-bot@zulip.test");
      assert.deepEqual(consents.map((c) => c.user_id).sort(), humans.map((u) => u.id).sort());
      assert.deepEqual(consents.find((c) => c.user_id === t.users.hamlet.id), { user_id: t.users.hamlet.id, consented: true, email_address_visibility: 3 });
      assert.deepEqual(consents.find((c) => c.user_id === t.users.othello.id), { user_id: t.users.othello.id, consented: false, email_address_visibility: 1 });
      const [event] = eventsOf(t, "realm_export_consent");
      assert.deepEqual(event.event, { type: "realm_export_consent", user_id: t.users.hamlet.id, consented: true });
      assert.deepEqual(event.userIds.sort(), [t.users.desdemona.id, t.users.iago.id].sort());
      const settings = (await t.as("hamlet").post("/register", { fetch_event_types: JSON.stringify(["user_settings"]) })).body.user_settings;
      assert.equal(settings.allow_private_data_export, true);

      // A new or reactivated user's consent (off by default) reaches the administrators too.
      t.published.length = 0;
      const created = await t.as("iago").post("/users", { email: "newcomer@zulip.test", password: "pw-newcomer-1", full_name: "Newcomer" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal((await t.as("iago").delete(`/users/${t.users.othello.id}`)).status, 200);
      assert.equal((await t.as("iago").post(`/users/${t.users.othello.id}/reactivate`)).status, 200);
      assert.deepEqual(eventsOf(t, "realm_export_consent").map((e) => e.event), [
        { type: "realm_export_consent", user_id: created.body.user_id, consented: false },
        { type: "realm_export_consent", user_id: t.users.othello.id, consented: false },
      ]);
    });
  });
}
