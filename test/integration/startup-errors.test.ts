/**
 * Start-up with a bad configuration (issue 18, item 7): each case prints exactly one error line —
 * JSON, naming the setting and saying what to do — and nothing else but JSON, exits non-zero, and
 * leaves nothing behind (no organization, no credentials file). The directories are made
 * unwritable with a file standing where a directory must be, which stops root too.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { testStoreUrls } from "../../src/config.js";
import { freePort, ROOT } from "../helpers/server-process.js";

interface Outcome {
  code: number | null;
  lines: Array<Record<string, unknown>>;
  stderr: string;
}

/** Runs the server with `env` over a clean environment of ours and collects what it printed. */
function start(env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", RATE_LIMITING: "off", WORKERS: "1" };
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], { cwd: ROOT, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // A start that does not fail would run forever: stop it so the test fails with what it printed.
    const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      const lines = stdout.split("\n").filter((l) => l !== "").map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return { notJson: l };
        }
      });
      resolve({ code, lines, stderr });
    });
  });
}

/** Exactly one error line, about `setting`, matching `fix`; every line JSON; exit 1. */
function assertOneClearLine(outcome: Outcome, setting: string, fix: RegExp): void {
  assert.equal(outcome.stderr, "", "nothing on stderr");
  assert.deepEqual(outcome.lines.filter((l) => "notJson" in l), [], "every line is JSON");
  const errors = outcome.lines.filter((l) => typeof l.level === "number" && l.level >= 50);
  assert.equal(errors.length, 1, `one error line: ${JSON.stringify(outcome.lines)}`);
  assert.equal(errors[0].setting, setting);
  assert.match(String(errors[0].msg), new RegExp(`^${setting}: `));
  assert.match(String(errors[0].msg), fix);
  assert.equal(outcome.code, 1);
}

describe("a start with a bad configuration says what to fix, in one line, and exits", () => {
  let dir: string;
  let blocker: Server;
  let busyPort: number;
  let env: (name: string) => Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "parley-misconfig-"));
    writeFileSync(join(dir, "a-file"), "not a directory");
    busyPort = await freePort();
    blocker = createServer();
    await new Promise<void>((r) => blocker.listen(busyPort, "127.0.0.1", r));
    // A fresh var/uploads/store per case, on a free port, with a matching EXTERNAL_HOST.
    env = (name) => {
      mkdirSync(join(dir, name));
      return {
        DATABASE_URL: `sqlite:${join(dir, name, "parley.sqlite3")}`,
        PARLEY_VAR_DIR: join(dir, name, "var"),
        UPLOADS_DIR: join(dir, name, "uploads"),
        EXTERNAL_HOST: "parley.test",
      };
    };
  });
  after(async () => {
    await new Promise((r) => blocker.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it("port in use: names PORT, before creating anything", async () => {
    const e = env("busy");
    const outcome = await start({ ...e, PORT: String(busyPort) });
    assertOneClearLine(outcome, "PORT", /already in use.*choose another PORT/);
    assert.equal(existsSync(join(dir, "busy", "parley.sqlite3")), false, "no store created");
    assert.equal(existsSync(join(dir, "busy", "var", "initial-credentials.json")), false, "no organization created");
  });

  it("unwritable SQLite directory: names DATABASE_URL", async () => {
    const e = env("sqlite");
    const outcome = await start({ ...e, PORT: String(await freePort()), DATABASE_URL: `sqlite:${join(dir, "a-file", "parley.sqlite3")}` });
    assertOneClearLine(outcome, "DATABASE_URL", /not a writable directory.*point DATABASE_URL elsewhere/);
  });

  it("unwritable uploads directory: names UPLOADS_DIR instead of failing every upload later", async () => {
    const e = env("uploads");
    const outcome = await start({ ...e, PORT: String(await freePort()), UPLOADS_DIR: join(dir, "a-file", "uploads") });
    assertOneClearLine(outcome, "UPLOADS_DIR", /not a writable directory/);
    assert.equal(existsSync(join(dir, "uploads", "parley.sqlite3")), false, "no store created");
  });

  it("unwritable runtime directory: names PARLEY_VAR_DIR before an owner is created whose password could not be saved", async () => {
    const e = env("var");
    const outcome = await start({ ...e, PORT: String(await freePort()), PARLEY_VAR_DIR: join(dir, "a-file", "var") });
    assertOneClearLine(outcome, "PARLEY_VAR_DIR", /not a writable directory/);
    assert.equal(existsSync(join(dir, "var", "parley.sqlite3")), false, "no store, so no owner, created");
  });

  it("PORT without EXTERNAL_HOST: names EXTERNAL_HOST instead of handing out links to port 9991", async () => {
    const { EXTERNAL_HOST: _unset, ...e } = env("external");
    const outcome = await start({ ...e, PORT: "8123" });
    assertOneClearLine(outcome, "EXTERNAL_HOST", /links would point at localhost:9991; set EXTERNAL_HOST/);
  });

  it("PostgreSQL not answering: names DATABASE_URL, without its password", async () => {
    const e = env("pg");
    const closed = await freePort();
    const outcome = await start({ ...e, PORT: String(await freePort()), DATABASE_URL: `postgres://parley:s3cret-pw@127.0.0.1:${closed}/parley` });
    assertOneClearLine(outcome, "DATABASE_URL", /does not answer.*check that PostgreSQL is running/);
    assert.equal(JSON.stringify(outcome.lines).includes("s3cret-pw"), false, "the password is not logged");
  });

  it("PostgreSQL role missing (the README recipe's mistake): names DATABASE_URL and quotes PostgreSQL", { skip: testStoreUrls().postgres ? false : "needs TEST_DATABASE_URL" }, async () => {
    const e = env("role");
    const url = new URL(testStoreUrls().postgres as string);
    url.username = "no_such_role_parley";
    const outcome = await start({ ...e, PORT: String(await freePort()), DATABASE_URL: url.toString() });
    assertOneClearLine(outcome, "DATABASE_URL", /role "no_such_role_parley" does not exist/);
  });

  it("Redis not answering: names REDIS_URL instead of starting a server whose registers never answer", async () => {
    const e = env("redis");
    const outcome = await start({ ...e, PORT: String(await freePort()), REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    assertOneClearLine(outcome, "REDIS_URL", /cannot reach Redis.*start Redis or fix REDIS_URL/);
    assert.equal(existsSync(join(dir, "redis", "parley.sqlite3")), false, "no store created");
  });

  it("a malformed value: names the setting", async () => {
    const e = env("value");
    const outcome = await start({ ...e, PORT: String(await freePort()), SESSION_COOKIE_SECURE: "sometimes" });
    assertOneClearLine(outcome, "SESSION_COOKIE_SECURE", /must be true, false or auto/);
  });
});
