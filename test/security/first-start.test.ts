/**
 * What a first start leaves on disk and in the log (issue 16, F12 and F16): the store, the
 * uploads, the saved credentials and the var directory are the service user's alone, and the
 * log says where the owner's credentials are without printing them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { freePort, startServer, type ServerProcess } from "../helpers/server-process.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("a first start on an empty SQLite store", () => {
  let dir: string;
  let server: ServerProcess;
  before(async () => {
    // A umask that would make everything world-readable: the server must not inherit it.
    const previous = process.umask(0o022);
    dir = mkdtempSync(join(tmpdir(), "parley-first-start-"));
    try {
      server = await startServer(
        await freePort(),
        { DATABASE_URL: `sqlite:${join(dir, "var", "parley.sqlite3")}`, PARLEY_VAR_DIR: join(dir, "var"), UPLOADS_DIR: join(dir, "var", "uploads"), EXTERNAL_HOST: "localhost" },
        { captureStdout: true },
      );
    } finally {
      process.umask(previous);
    }
  });
  after(async () => {
    await server?.stop("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints where the owner's credentials are, not the password or the API key", () => {
    const creds = JSON.parse(readFileSync(join(dir, "var", "initial-credentials.json"), "utf8")) as Record<string, string>;
    const log = server.stdout();
    assert.match(log, new RegExp(`owner ${creds.email.replace(/[.]/g, "\\.")}; its password and API key are in .*initial-credentials\\.json`));
    assert.ok(!log.includes(creds.password), "the password is not printed");
    assert.ok(!log.includes(creds.api_key), "the API key is not printed");
  });

  it("creates the store, the credentials and the uploads owner-only", async () => {
    const creds = JSON.parse(readFileSync(join(dir, "var", "initial-credentials.json"), "utf8")) as Record<string, string>;
    const form = new FormData();
    form.set("file", new Blob(["secret notes"], { type: "text/plain" }), "notes.txt");
    const auth = "Basic " + Buffer.from(`${creds.email}:${creds.api_key}`).toString("base64");
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/user_uploads`, { method: "POST", headers: { authorization: auth }, body: form });
    assert.equal(res.status, 200);
    const files: string[] = [];
    const walk = (path: string) => {
      for (const name of readdirSync(path)) {
        const child = join(path, name);
        if (statSync(child).isDirectory()) {
          assert.equal(mode(child), 0o700, `${child} is a directory only its owner can enter`);
          walk(child);
        } else files.push(child);
      }
    };
    assert.equal(mode(join(dir, "var")), 0o700);
    walk(join(dir, "var"));
    assert.ok(files.some((f) => f.endsWith("parley.sqlite3")) && files.some((f) => f.endsWith("notes.txt")), files.join(" "));
    for (const file of files) assert.equal(mode(file) & 0o077, 0, `${file} is ${mode(file).toString(8)}`);
  });
});
