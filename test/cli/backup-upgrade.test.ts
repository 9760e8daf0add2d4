/**
 * Backups across an upgrade (issue 18, item 5): a backup taken by an older version — a store
 * migrated only up to an older migration, with data written at that level — restores on this
 * version into an empty store and into one this version already migrated and filled (on
 * PostgreSQL that used to fail with "cannot drop schema public"), arrives at this version's
 * migration level, and serves its data through the API. Also: the archive is 0600 whatever the
 * umask, and a restore refuses while a server holds the store. In process (the functions `manage`
 * runs); on SQLite always, on PostgreSQL when TEST_DATABASE_URL is set.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { checkSendMessage } from "../../src/actions/messages/send-message.js";
import { buildApp } from "../../src/app.js";
import { runBackup, runRestore } from "../../src/cli/backup.js";
import { runCreateRealm, runCreateUser, type CreatedAccount } from "../../src/cli/commands.js";
import { readTx, type Store } from "../../src/store/db.js";
import { LATEST_MIGRATION, MIGRATION_NAMES, migrateToLatest, migrateUpTo, migrationLevel } from "../../src/store/migrate.js";
import { getRealmById } from "../../src/store/realms.js";
import { takeStoreLock } from "../../src/store/server-lock.js";
import type { RealmRow, UserRow } from "../../src/store/types.js";
import { getUserById } from "../../src/store/users.js";
import { FakeClock, testConfig, testDeps } from "../helpers/fixtures.js";
import { openEmptyStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

/** N−1: the level of the version before this one's newest migration. */
const PREVIOUS = MIGRATION_NAMES.at(-2) as string;
/** An older level still, before a migration that creates a table (the target then holds tables the dump does not). */
const OLDER = "0014_scheduled_messages";

for (const kind of STORE_KINDS) {
  describe(`restoring an older version's backup on this version [${kind}]`, () => {
    let dir: string;
    const opened: TestStore[] = [];
    const clock = new FakeClock();
    const config = () => testConfig({ uploadsDir: join(dir, "uploads"), varDir: join(dir, "var") });
    const empty = async () => {
      const store = await openEmptyStore(kind, dir);
      opened.push(store);
      return store.store;
    };

    before(() => {
      dir = mkdtempSync(join(tmpdir(), "parley-upgrade-"));
      // The archive must come out 0600 even under a permissive umask (the CLI sets 077; the code must not rely on it).
      process.umask(0o022);
    });
    after(async () => {
      for (const store of opened) await store.cleanup();
      rmSync(dir, { recursive: true, force: true });
    });

    /** A store at `level` with an organization, a member and a direct message, backed up to a file. */
    async function olderBackup(level: string): Promise<{ archive: string; owner: CreatedAccount; member: CreatedAccount }> {
      const store = await empty();
      await migrateUpTo(store, level);
      assert.equal(await migrationLevel(store), level);
      const owner = await runCreateRealm(store, clock, { subdomain: "", name: "Old times", "owner-email": "owner@old.test", "owner-name": "Owner", "owner-password": "pw-owner-1" });
      const member = await runCreateUser(store, clock, { realm: "", email: "member@old.test", "full-name": "Member", password: "pw-member-1" });
      const tx = readTx(store);
      const realm = (await getRealmById(tx, owner.realm_id)) as RealmRow;
      // Each account writes a note to itself: this version's code writes the older schema, so the
      // message must not raise a notification (the sender never notifies themself), whose table
      // a store at an older level does not have.
      for (const account of [owner, member]) {
        const sender = (await getUserById(tx, realm.id, account.user_id)) as UserRow;
        await checkSendMessage(testDeps(store, {}, clock), realm, sender, { type: "direct", to: JSON.stringify([account.user_id]), content: `written at ${level}`, client: "test" });
      }
      const archive = join(dir, `backup-${level}-${Date.now()}.tar`);
      const summary = await runBackup(store, config(), clock, archive);
      assert.equal(summary.migration, level);
      assert.equal(statSync(archive).mode & 0o777, 0o600);
      return { archive, owner, member };
    }

    /** What a client of the restored server sees: its own account and the old message. */
    async function assertServes(store: Store, account: CreatedAccount, content: string): Promise<void> {
      const app = await buildApp(testDeps(store, {}, clock), { logger: false });
      try {
        const authorization = "Basic " + Buffer.from(`${account.email}:${account.api_key}`).toString("base64");
        const me = await app.inject({ method: "GET", url: "/api/v1/users/me", headers: { authorization } });
        assert.equal(me.statusCode, 200, me.body);
        assert.equal(me.json().user_id, account.user_id);
        const messages = await app.inject({ method: "GET", url: "/api/v1/messages?anchor=newest&num_before=50&num_after=0", headers: { authorization } });
        assert.equal(messages.statusCode, 200, messages.body);
        const contents = messages.json().messages.map((m: { content: string }) => m.content) as string[];
        assert.deepEqual(contents.filter((c) => c.includes("written at")), [`<p>${content}</p>`]);
      } finally {
        await app.close();
      }
    }

    it(`restores a backup at ${PREVIOUS} (N−1) into an empty store, then migrates it to ${LATEST_MIGRATION}`, async () => {
      const { archive, member } = await olderBackup(PREVIOUS);
      const target = await empty();
      const restored = await runRestore(target, config(), archive);
      assert.deepEqual([restored.from_migration, restored.migrated], [PREVIOUS, [LATEST_MIGRATION]]);
      assert.equal(await migrationLevel(target), LATEST_MIGRATION);
      await assertServes(target, member, `written at ${PREVIOUS}`);
    });

    it(`restores a backup at ${OLDER} over a store this version migrated and filled`, async () => {
      const { archive, owner } = await olderBackup(OLDER);
      const target = await empty();
      await migrateToLatest(target);
      await runCreateRealm(target, clock, { subdomain: "", name: "Newer", "owner-email": "someone@new.test", "owner-name": "New", "owner-password": "pw-new-1" });
      const restored = await runRestore(target, config(), archive);
      assert.equal(restored.from_migration, OLDER);
      assert.equal(restored.migrated.at(-1), LATEST_MIGRATION);
      await assertServes(target, owner, `written at ${OLDER}`);
      const emails = await target.db.selectFrom("users").select("delivery_email").orderBy("id").execute();
      assert.deepEqual(emails.map((u) => u.delivery_email), ["owner@old.test", "member@old.test"], "the newer data is gone, the backup's is back");
    });

    it("refuses to restore while a server holds the store, and changes nothing", async () => {
      const { archive } = await olderBackup(PREVIOUS);
      const target = await empty();
      await migrateToLatest(target);
      const server = await takeStoreLock(target, "shared");
      try {
        await assert.rejects(runRestore(target, config(), archive), /a Parley server is using this database; stop every server process/);
      } finally {
        await server.release();
      }
      assert.equal((await target.db.selectFrom("users").select("id").execute()).length, 0);
    });
  });
}
