/**
 * `manage backup FILE` / `manage restore FILE` as an operator runs them (issue 9, item 6): a round
 * trip brings back the database (rows and id sequences) and the uploads directory exactly as they
 * were at the backup, and every refused or failed run leaves both untouched. On SQLite always, on
 * PostgreSQL when TEST_DATABASE_URL is set (a fresh database).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { runCreateUser } from "../../src/cli/commands.js";
import { systemClock } from "../../src/deps.js";
import { openStore, type Store } from "../../src/store/db.js";
import { LATEST_MIGRATION } from "../../src/store/migrate.js";
import { takeStoreLock } from "../../src/store/server-lock.js";
import { PARLEY_VERSION } from "../../src/version.js";
import { testDeps } from "../helpers/fixtures.js";
import { manageJson, runManage, type Run } from "../helpers/server-process.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

interface Account {
  user_id: number;
  email: string;
  api_key: string;
}

const PHOTO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function failed(run: Run, stderr: RegExp): void {
  assert.notEqual(run.code, 0, `expected failure, got ${run.stdout}`);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, stderr);
}

for (const kind of STORE_KINDS) {
  describe(`manage backup and restore [${kind}]`, () => {
    let dir: string;
    let uploads: string;
    let env: Record<string, string>;
    let pg: TestStore | null = null;
    let store: Store;
    let app: FastifyInstance;
    let owner: Account;
    let member: Account;
    let archive: string;

    const send = async (content: string) => {
      const res = await app.inject({
        method: "POST",
        url: "/api/v1/messages",
        headers: {
          authorization: "Basic " + Buffer.from(`${owner.email}:${owner.api_key}`).toString("base64"),
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: new URLSearchParams({ type: "direct", to: JSON.stringify([member.user_id]), content }).toString(),
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().id as number;
    };
    // People's messages: a new organization also starts with Welcome Bot's (realm-onboarding.ts).
    const contents = async () =>
      (await store.db.selectFrom("messages").innerJoin("users", "users.id", "messages.sender_id").where("users.is_bot", "=", false).select("messages.content").orderBy("messages.id").execute()).map((m) => m.content);
    const emails = async () => (await store.db.selectFrom("users").where("is_bot", "=", false).select("delivery_email").orderBy("id").execute()).map((u) => u.delivery_email);
    // In process (the CLI's own function) to spare a process start; the CLI itself is tested in manage.test.ts.
    const createUser = (email: string) => runCreateUser(store, systemClock, { realm: "", email, "full-name": "Late", password: "pw-late-1" });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "parley-backup-"));
      uploads = join(dir, "uploads");
      pg = kind === "postgres" ? await openTestStore("postgres") : null;
      const databaseUrl = pg ? pg.url : `sqlite:${join(dir, "parley.sqlite3")}`;
      env = { DATABASE_URL: databaseUrl, UPLOADS_DIR: uploads };
      owner = await manageJson<Account>(env, ["create-realm", "--subdomain", "", "--name", "Backed up", "--owner-email", "owner@backup.test", "--owner-name", "Owner", "--owner-password", "pw-owner-1"]);
      member = await manageJson<Account>(env, ["create-user", "--realm", "", "--email", "member@backup.test", "--full-name", "Member", "--password", "pw-member-1"]);
      store = pg ? pg.store : openStore(databaseUrl);
      app = await buildApp(testDeps(store, { uploadsDir: uploads }), { logger: false });
      archive = join(dir, "parley-backup.tar");
    });

    after(async () => {
      await app.close();
      if (pg) await pg.cleanup();
      else await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("restores the database and the uploads as they were at the backup", async () => {
      await send("before the backup");
      mkdirSync(join(uploads, "1", "ab"), { recursive: true });
      writeFileSync(join(uploads, "1", "ab", "photo.png"), PHOTO);
      mkdirSync(join(uploads, ".tus"), { recursive: true });
      writeFileSync(join(uploads, ".tus", "half-done"), "chunk");

      const backup = await manageJson(env, ["backup", archive]);
      assert.deepEqual(
        { ...backup, archive_bytes: typeof backup.archive_bytes },
        { backup: archive, dialect: kind, parley_version: PARLEY_VERSION, migration: LATEST_MIGRATION, archive_bytes: "number", upload_files: 1 },
      );
      // It holds password hashes and API keys: the operator's alone (issue 16, F12).
      assert.equal(statSync(archive).mode & 0o077, 0, `archive mode ${(statSync(archive).mode & 0o777).toString(8)}`);
      const members = execFileSync("tar", ["-tf", archive], { encoding: "utf8" }).split("\n");
      assert.ok(members.includes("uploads/1/ab/photo.png"), members.join(" "));
      assert.equal(members.some((m) => m.includes(".tus")), false, "uploads in progress are left out");

      await send("after the backup");
      const late = await createUser("late@backup.test");
      rmSync(join(uploads, "1", "ab", "photo.png"));
      mkdirSync(join(uploads, "1", "cd"), { recursive: true });
      writeFileSync(join(uploads, "1", "cd", "late.txt"), "late");

      // A server using the store (its lock, taken here as a server process takes it) stops a restore.
      const server = await takeStoreLock(store, "shared");
      failed(await runManage(env, ["restore", archive]), /^error: a Parley server is using this database; stop every server process using it/);
      await server.release();
      assert.deepEqual(await contents(), ["before the backup", "after the backup"], "nothing was restored");

      assert.deepEqual(await manageJson(env, ["restore", archive]), {
        restored: archive,
        dialect: kind,
        from_migration: LATEST_MIGRATION,
        migrated: [],
        upload_files: 1,
      });
      assert.deepEqual(await contents(), ["before the backup"]);
      assert.deepEqual(await emails(), ["owner@backup.test", "member@backup.test"]);
      assert.deepEqual(readFileSync(join(uploads, "1", "ab", "photo.png")), PHOTO);
      assert.equal(existsSync(join(uploads, "1", "cd")), false);

      // The id sequences came back too: the same user gets the same id again, and sends work.
      assert.equal((await createUser("late@backup.test")).user_id, late.user_id);
      await send("after the restore");
      assert.deepEqual(await contents(), ["before the backup", "after the restore"]);
    });

    it("refuses to overwrite a file, and needs exactly one FILE", async () => {
      const [existing, none, two] = await Promise.all([
        runManage(env, ["backup", archive]),
        runManage(env, ["backup"]),
        runManage(env, ["restore", archive, archive]),
      ]);
      failed(existing, /already exists/);
      failed(none, /backup takes FILE/);
      failed(two, /restore takes FILE/);
    });

    it("leaves the database and the uploads untouched when a restore fails", async () => {
      const build = (name: string, manifest: Record<string, unknown> | null, database: string) => {
        const staging = mkdtempSync(join(dir, "staging-"));
        if (manifest) writeFileSync(join(staging, "manifest.json"), JSON.stringify(manifest));
        writeFileSync(join(staging, "db"), database);
        const path = join(dir, name);
        execFileSync("tar", ["-cf", path, "-C", staging, "."]);
        return path;
      };
      const manifest = { format: "parley-backup", version: 1, created_at: 0, database: "db", uploads: null };
      const fromTheFuture = { ...manifest, version: 2, dialect: kind, parley_version: "99.0.0", migration: "9999_from_the_future" };
      const otherDialect = kind === "sqlite" ? "postgres" : "sqlite";
      const [missing, foreign, corrupt, wrongDialect, newer] = await Promise.all([
        runManage(env, ["restore", join(dir, "no-such.tar")]),
        runManage(env, ["restore", build("foreign.tar", null, "x")]),
        runManage(env, ["restore", build("corrupt.tar", { ...manifest, dialect: kind }, "not a database at all")]),
        runManage(env, ["restore", build("other.tar", { ...manifest, dialect: otherDialect }, "x")]),
        runManage(env, ["restore", build("newer.tar", fromTheFuture, "x")]),
      ]);
      failed(missing, /no file/);
      failed(foreign, /not a Parley backup/);
      failed(corrupt, kind === "sqlite" ? /not a database/ : /pg_restore failed/);
      failed(newer, /made by Parley 99\.0\.0 at migration 9999_from_the_future, newer than this Parley/);
      failed(wrongDialect, new RegExp(`holds a ${otherDialect} database, but DATABASE_URL names a ${kind} one`));
      assert.deepEqual(await contents(), ["before the backup", "after the restore"]);
      assert.deepEqual(readFileSync(join(uploads, "1", "ab", "photo.png")), PHOTO);
    });
  });
}
