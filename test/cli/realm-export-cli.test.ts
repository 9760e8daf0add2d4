/**
 * `manage export-realm`, `manage import-realm` and `manage set-owner-full-content-access` as an
 * operator runs them: one JSON line each, one clear line and a non-zero exit on bad input, and
 * `--help`. The export of a SQLite realm is imported into a second store — PostgreSQL when
 * TEST_DATABASE_URL is set (moving a realm from SQLite to PostgreSQL), another SQLite file
 * otherwise — where its owner logs in with the same password and finds the same messages.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { openStore, type Store } from "../../src/store/db.js";
import { formEncode, testDeps } from "../helpers/fixtures.js";
import { manageJson, runManage, type Run } from "../helpers/server-process.js";
import { openTestStore, STORE_KINDS, type TestStore } from "../helpers/stores.js";

interface Account {
  user_id: number;
  email: string;
  api_key: string;
}

function failed(run: Run, stderr: RegExp): void {
  assert.notEqual(run.code, 0, `expected failure, got ${run.stdout}`);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, stderr);
}

async function post(app: FastifyInstance, host: string, path: string, params: Record<string, unknown>, auth?: Account) {
  const headers: Record<string, string> = { host, "content-type": "application/x-www-form-urlencoded" };
  if (auth) headers.authorization = "Basic " + Buffer.from(`${auth.email}:${auth.api_key}`).toString("base64");
  const res = await app.inject({ method: "POST", url: `/api/v1${path}`, headers, payload: formEncode(params) });
  return { status: res.statusCode, body: res.json() };
}

describe("manage export-realm / import-realm", () => {
  const target = STORE_KINDS.includes("postgres") ? "postgres" : "sqlite";
  let dir: string;
  let source: Record<string, string>;
  let destination: Record<string, string>;
  let pg: TestStore | null = null;
  let archive: string;
  const host = "acme.testserver.local:9991";

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-export-cli-"));
    source = { DATABASE_URL: `sqlite:${join(dir, "source.sqlite3")}`, UPLOADS_DIR: join(dir, "uploads-a"), EXTERNAL_HOST: "testserver.local:9991" };
    pg = target === "postgres" ? await openTestStore("postgres") : null;
    destination = { DATABASE_URL: pg ? pg.url : `sqlite:${join(dir, "target.sqlite3")}`, UPLOADS_DIR: join(dir, "uploads-b"), EXTERNAL_HOST: "testserver.local:9991" };
    const owner = await manageJson<Account>(source, ["create-realm", "--subdomain", "acme", "--name", "Acme", "--owner-email", "owner@acme.test", "--owner-name", "Owner", "--owner-password", "pw-owner-1"]);
    const member = await manageJson<Account>(source, ["create-user", "--realm", "acme", "--email", "member@acme.test", "--full-name", "Member", "--password", "pw-member-1"]);
    const store = openStore(source.DATABASE_URL);
    const app = await buildApp(testDeps(store, { uploadsDir: source.UPLOADS_DIR }), { logger: false });
    try {
      const sent = await post(app, host, "/messages", { type: "direct", to: JSON.stringify([member.user_id]), content: "moved across stores" }, owner);
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    } finally {
      await app.close();
      await store.close();
    }
    archive = join(dir, "acme.tar.gz");
  });
  after(async () => {
    await pg?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("explains itself and refuses bad input with one clear line", async () => {
    const help = await runManage(source, ["export-realm", "--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: manage export-realm --realm REALM --output OUTPUT \[--consent\] \[--public-only\]/);
    failed(await runManage(source, ["export-realm"]), /^error: missing --realm/);
    failed(await runManage(source, ["export-realm", "--realm", "nowhere"]), /^error: no realm with subdomain 'nowhere'\n$/);
    failed(await runManage(source, ["export-realm", "--realm", "acme", "--consent", "--public-only"]), /^error: --consent and --public-only exclude each other\n$/);
    failed(await runManage(source, ["export-realm", "--realm", "acme", "--output", join(dir, "no", "such", "dir.tar.gz")]), /^error: no directory /);
    const garbage = join(dir, "garbage.tar.gz");
    writeFileSync(garbage, "not an archive");
    failed(await runManage(destination, ["import-realm", garbage]), /^error: not a readable export archive/);
    failed(await runManage(destination, ["import-realm", join(dir, "missing.tar.gz")]), /^error: no file /);
    failed(await runManage(source, ["set-owner-full-content-access", "--realm", "acme"]), /^error: give exactly one of --enable and --disable\n$/);
    assert.deepEqual(await manageJson(source, ["set-owner-full-content-access", "--realm", "acme", "--enable"]), { realm_id: 1, owner_full_content_access: true });
  });

  it(`moves a realm from SQLite to ${target}: same users, passwords and messages`, async () => {
    const exported = await manageJson<{ export: string; tables: Record<string, number> }>(source, ["export-realm", "--realm", "acme", "--output", archive]);
    assert.equal(exported.export, archive);
    assert.equal(exported.tables.messages, 4, "Welcome Bot's three first messages of a new organization and the one sent here");
    failed(await runManage(source, ["export-realm", "--realm", "acme", "--output", archive]), /already exists/);

    const imported = await manageJson<{ realm_id: number; subdomain: string; tables: Record<string, number> }>(destination, ["import-realm", archive]);
    assert.equal(imported.subdomain, "acme");
    assert.deepEqual(imported.tables, exported.tables);
    failed(await runManage(destination, ["import-realm", archive]), /^error: subdomain 'acme' is already in use; choose another with --subdomain\n$/);
    assert.equal((await manageJson<{ subdomain: string }>(destination, ["import-realm", archive, "--subdomain", "acme-two"])).subdomain, "acme-two");

    const store: Store = pg ? pg.store : openStore(destination.DATABASE_URL);
    const app = await buildApp(testDeps(store, { uploadsDir: destination.UPLOADS_DIR }), { logger: false });
    try {
      const login = await post(app, host, "/fetch_api_key", { username: "member@acme.test", password: "pw-member-1" });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const member: Account = { user_id: login.body.user_id, email: login.body.email, api_key: login.body.api_key };
      const res = await app.inject({
        method: "GET",
        url: "/api/v1/messages?anchor=newest&num_before=5&num_after=0&apply_markdown=false",
        headers: { host, authorization: "Basic " + Buffer.from(`${member.email}:${member.api_key}`).toString("base64") },
      });
      assert.deepEqual(res.json().messages.map((m: { content: string; sender_email: string }) => [m.sender_email, m.content]), [["owner@acme.test", "moved across stores"]]);
    } finally {
      await app.close();
      if (!pg) await store.close();
    }
  });
});
