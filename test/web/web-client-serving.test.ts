/**
 * The web client's static serving (issue 10, src/http/web-client.ts): index.html at `/` and for
 * client page paths, hashed assets with a year-long cache, the server's own paths left to their
 * JSON 404s, and a plain page instead of a failure when the client is not built.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildEndpointApp, type EchoApp } from "../helpers/http.js";

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="app"></div></body></html>';
const BROWSER = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

describe("web client serving", () => {
  let dir: string;
  let built: EchoApp;
  let unbuilt: EchoApp;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "parley-web-"));
    await mkdir(join(dir, "assets"));
    await writeFile(join(dir, "index.html"), INDEX);
    await writeFile(join(dir, "assets", "index-abc123.js"), "console.log('client')");
    await writeFile(join(dir, "robots.txt"), "User-agent: *\n");
    built = await buildEndpointApp([], { webClientDir: dir });
    unbuilt = await buildEndpointApp([], { webClientDir: join(dir, "missing") });
  });

  after(async () => {
    await built.close();
    await unbuilt.close();
    await rm(dir, { recursive: true, force: true });
  });

  test("/ serves index.html, revalidated each load, with a CSP that lets the client run", async () => {
    const res = await built.app.inject({ method: "GET", url: "/" });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, INDEX);
    assert.match(String(res.headers["content-type"]), /^text\/html/);
    assert.equal(res.headers["cache-control"], "no-cache");
    const csp = String(res.headers["content-security-policy"]);
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
  });

  test("hashed assets are cached for a year; other files are revalidated", async () => {
    const asset = await built.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.body, "console.log('client')");
    assert.match(String(asset.headers["content-type"]), /javascript/);
    assert.match(String(asset.headers["cache-control"]), /max-age=31536000/);
    assert.match(String(asset.headers["cache-control"]), /immutable/);
    const plain = await built.app.inject({ method: "GET", url: "/robots.txt" });
    assert.equal(plain.statusCode, 200);
    assert.match(String(plain.headers["cache-control"]), /max-age=0/);
  });

  test("/index.html is the same page; other paths, the server's own included, keep Zulip's JSON 404", async () => {
    const index = await built.app.inject({ method: "GET", url: "/index.html" });
    assert.equal(index.body, INDEX);
    assert.equal(index.headers["cache-control"], "no-cache");
    for (const url of ["/login", "/assets/missing-123.js", "/api/v1/no_such_endpoint", "/user_uploads/", "/accounts/nothing", "/json/messages", "/api"]) {
      const res = await built.app.inject({ method: "GET", url, headers: BROWSER });
      assert.equal(res.statusCode, 404, url);
      assert.deepEqual(res.json(), { result: "error", msg: "Not Found", code: "BAD_REQUEST" }, url);
    }
  });

  test("a path escaping the build directory is refused", async () => {
    for (const url of ["/assets/..%2f..%2fetc/passwd", "/assets/%2e%2e/%2e%2e/etc/passwd"]) {
      const res = await built.app.inject({ method: "GET", url });
      assert.ok([403, 404].includes(res.statusCode), `${url}: ${res.statusCode}`);
      assert.equal(res.json().result, "error");
    }
  });

  test("without a build, / answers a page saying so, and the API still works", async () => {
    const res = await unbuilt.app.inject({ method: "GET", url: "/" });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /web client is not built/);
    const api = await unbuilt.app.inject({ method: "GET", url: "/api/v1/nothing" });
    assert.equal(api.statusCode, 404);
    assert.equal(api.json().result, "error");
  });
});
