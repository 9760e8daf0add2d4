/**
 * The manage CLI as an operator runs it: a child process on a SQLite file. Success prints exactly
 * one JSON line on stdout and exits 0; bad input prints to stderr only and exits non-zero.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { openStore, readTx, type Store } from "../../src/store/db.js";
import { getUserAndRealmByApiKey } from "../../src/store/users.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function manage(databaseUrl: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/manage.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Exactly one line of JSON with the four account fields. */
function account(run: Run): { realm_id: number; user_id: number; email: string; api_key: string } {
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, "");
  const lines = run.stdout.split("\n");
  assert.deepEqual([lines.length, lines[1]], [2, ""], `one line expected: ${JSON.stringify(run.stdout)}`);
  const parsed = JSON.parse(lines[0]);
  assert.deepEqual(Object.keys(parsed).sort(), ["api_key", "email", "realm_id", "user_id"]);
  assert.match(parsed.api_key, /^[A-Za-z0-9]{32}$/);
  return parsed;
}

function failed(run: Run, stderr: RegExp) {
  assert.notEqual(run.code, 0, `expected failure, got ${run.stdout}`);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, stderr);
}

describe("manage CLI", () => {
  let dir: string;
  let url: string;
  let store: Store;
  let realmId: number;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "parley-manage-"));
    url = `sqlite:${join(dir, "parley.sqlite3")}`;
  });
  after(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("migrate prints one JSON line", async () => {
    const run = await manage(url, "migrate");
    assert.deepEqual([run.code, run.stdout, run.stderr], [0, '{"migrated":true}\n', ""]);
  });

  it("create-realm creates a realm and its owner", async () => {
    const owner = account(
      await manage(url, "create-realm", "--subdomain", "acme", "--name", "Acme Inc", "--owner-email", "boss@acme.test", "--owner-name", "Boss", "--owner-password", "pw-boss"),
    );
    assert.equal(owner.email, "boss@acme.test");
    realmId = owner.realm_id;
    store = openStore(url);
    const found = await getUserAndRealmByApiKey(readTx(store), owner.api_key);
    assert.deepEqual([found?.user.id, found?.user.role, found?.realm.string_id, found?.realm.name], [owner.user_id, 100, "acme", "Acme Inc"]);
  });

  it("create-user creates a member, a user with --role, and a bot with --bot-type and --bot-owner", async () => {
    const base = ["create-user", "--realm", "acme", "--password", "pw"];
    const member = account(await manage(url, ...base, "--email", "ann@acme.test", "--full-name", "Ann"));
    const admin = account(await manage(url, ...base, "--email", "adm@acme.test", "--full-name", "Adm", "--role", "200"));
    const bot = account(await manage(url, ...base, "--email", "bot@acme.test", "--full-name", "Bot", "--bot-type", "1", "--bot-owner", "ANN@acme.test"));
    for (const created of [member, admin, bot]) assert.equal(created.realm_id, realmId);
    const rows = await Promise.all([member, admin, bot].map((c) => getUserAndRealmByApiKey(readTx(store), c.api_key)));
    assert.deepEqual(
      rows.map((r) => [r?.user.delivery_email, r?.user.role, r?.user.is_bot, r?.user.bot_type, r?.user.bot_owner_id]),
      [
        ["ann@acme.test", 400, false, null, null],
        ["adm@acme.test", 200, false, null, null],
        ["bot@acme.test", 400, true, 1, member.user_id],
      ],
    );
  });

  it("change-user-permission grants and revokes can_create_users, printing one JSON line", async () => {
    const args = ["change-user-permission", "--realm", "acme", "--email", "ADM@acme.test", "--permission", "can_create_users"];
    const [granted, badPermission, nobody] = await Promise.all([
      manage(url, ...args),
      manage(url, "change-user-permission", "--realm", "acme", "--email", "adm@acme.test", "--permission", "can_forge_sender"),
      manage(url, "change-user-permission", "--realm", "acme", "--email", "ghost@acme.test", "--permission", "can_create_users"),
    ]);
    assert.deepEqual([granted.code, granted.stderr], [0, ""]);
    const admin = await store.db.selectFrom("users").select(["id", "can_create_users"]).where("delivery_email", "=", "adm@acme.test").executeTakeFirstOrThrow();
    assert.equal(granted.stdout, JSON.stringify({ realm_id: realmId, user_id: admin.id, email: "adm@acme.test", permission: "can_create_users", value: true }) + "\n");
    assert.equal(Boolean(admin.can_create_users), true);
    failed(badPermission, /--permission must be one of can_create_users, can_change_user_emails/);
    failed(nobody, /no user 'ghost@acme.test' in realm 'acme'/);
    const revoked = await manage(url, ...args, "--revoke");
    assert.equal(JSON.parse(revoked.stdout).value, false);
    const after = await store.db.selectFrom("users").select("can_create_users").where("id", "=", admin.id).executeTakeFirstOrThrow();
    assert.equal(Boolean(after.can_create_users), false);
  });

  it("--help lists every command and COMMAND --help its flags; the operator commands print one JSON line or one error line", async () => {
    const [help, commandHelp, realms, lastOwner, ghost, badRole] = await Promise.all([
      manage(url, "--help"),
      manage(url, "change-role", "--help"),
      manage(url, "list-realms"),
      manage(url, "change-role", "--realm", "acme", "--email", "boss@acme.test", "--role", "member"),
      manage(url, "deactivate-user", "--realm", "acme", "--email", "ghost@acme.test"),
      manage(url, "change-role", "--realm", "acme", "--email", "ann@acme.test", "--role", "emperor"),
    ]);
    assert.deepEqual([help.code, help.stderr], [0, ""]);
    assert.doesNotMatch(help.stdout, /unknown command/);
    for (const command of ["change-role", "deactivate-user", "reactivate-user", "set-password", "send-password-reset", "change-email", "list-realms", "list-users", "rotate-api-key", "deactivate-realm", "send-test-email", "backup", "restore"]) {
      assert.match(help.stdout, new RegExp(`^  ${command} +\\S`, "m"), command);
    }
    assert.deepEqual([commandHelp.code, commandHelp.stderr], [0, ""]);
    assert.match(commandHelp.stdout, /^usage: manage change-role --realm REALM --email EMAIL --role ROLE\n/);
    assert.match(commandHelp.stdout, /--role +owner, administrator, moderator, member or guest/);
    assert.deepEqual([realms.code, realms.stderr], [0, ""]);
    assert.equal(realms.stdout.split("\n").length, 2, "one JSON line");
    assert.deepEqual(JSON.parse(realms.stdout).realms.map((r: { subdomain: string }) => r.subdomain), ["acme"]);
    for (const [run, message] of [
      [lastOwner, "error: The owner permission cannot be removed from the only organization owner."],
      [ghost, "error: no user 'ghost@acme.test' in realm 'acme'"],
      [badRole, "error: --role must be one of owner, administrator, moderator, member, guest (or 100, 200, 300, 400, 600)"],
    ] as const) {
      assert.deepEqual([run.code, run.stdout, run.stderr], [1, "", `${message}\n`]);
    }
  });

  it("refuses bad arguments on stderr, with nothing on stdout and a non-zero exit", async () => {
    // In parallel: each run is a fresh node + tsx process, about a second of CPU.
    const user = ["create-user", "--realm", "acme", "--password", "pw", "--full-name", "X"];
    const [unknown, missing, badRole, noRealm, duplicate, orphanOwner, takenSubdomain] = await Promise.all([
      manage(url, "make-coffee"),
      manage(url, "create-realm", "--subdomain", "x", "--name", "X"),
      manage(url, ...user, "--email", "x@acme.test", "--role", "150"),
      manage(url, "create-user", "--realm", "nowhere", "--email", "x@acme.test", "--full-name", "X", "--password", "pw"),
      manage(url, ...user, "--email", "ANN@acme.test"),
      manage(url, ...user, "--email", "y@acme.test", "--bot-owner", "ann@acme.test"),
      manage(url, "create-realm", "--subdomain", "ACME", "--name", "Again", "--owner-email", "o@x.test", "--owner-name", "O", "--owner-password", "pw"),
    ]);
    failed(unknown, /^unknown command: make-coffee \(manage --help lists them\)\n$/);
    failed(missing, /missing --owner-email/);
    failed(badRole, /--role must be one of 100, 200, 300, 400, 600/);
    failed(noRealm, /no realm with subdomain 'nowhere'/);
    failed(duplicate, /Email 'ANN@acme.test' already in use/);
    failed(orphanOwner, /--bot-owner needs --bot-type/);
    failed(takenSubdomain, /Subdomain is already in use/);
    const users = await store.db.selectFrom("users").select("delivery_email").orderBy("id").execute();
    // Welcome Bot arrives with the organization: it posts the first messages (realm-onboarding.ts).
    assert.deepEqual(users.map((u) => u.delivery_email), ["boss@acme.test", "welcome-bot@zulip.com", "ann@acme.test", "adm@acme.test", "bot@acme.test"], "nothing was written");
  });

  it("create-user run several times at once on one file: each succeeds (no 'database is locked')", async () => {
    // Found by the browser tests: two concurrent create-user processes beside a server, one failing
    // when the other committed between its read and its write.
    const emails = [1, 2, 3, 4].map((n) => `parallel${n}@acme.test`);
    const runs = await Promise.all(emails.map((email) => manage(url, "create-user", "--realm", "acme", "--password", "pw", "--email", email, "--full-name", email)));
    const created = runs.map(account);
    assert.deepEqual(created.map((c) => c.email), emails);
    assert.equal(new Set(created.map((c) => c.user_id)).size, emails.length);
  });
});
