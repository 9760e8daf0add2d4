/**
 * S11 (bench/scenarios/s11-first-load.ts) loads the web client as a browser does: the files the page
 * links, then POST /register with the client's own parameters, which it keeps a copy of because
 * the benchmark does not compile the client. This checks the copy against the client's source and
 * the page parsing against the shapes Vite writes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { linkedAssets, WEB_REGISTER_PARAMS } from "../../bench/scenarios/s11-first-load.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("the first-load scenario (S11)", () => {
  it("registers with the web client's own parameters", async () => {
    // A computed path: the client's sources are type-checked with its own tsconfig, not this one.
    const client = (await import(pathToFileURL(join(ROOT, "web/src/api/events.ts")).href)) as { REGISTER_PARAMS: unknown };
    assert.deepEqual(WEB_REGISTER_PARAMS, client.REGISTER_PARAMS);
  });

  it("fetches the page's own scripts, style sheets and preloads, nothing else", () => {
    const page = `<!doctype html><html><head>
      <link rel="icon" href="data:," />
      <script type="module" crossorigin src="/assets/index-D6thvleY.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor-X1.js">
      <link rel="stylesheet" crossorigin href="/assets/index-oQSIhMuu.css">
      <link rel="stylesheet" href="https://cdn.example/x.css">
      <script src="//cdn.example/y.js"></script>
      <link rel="manifest" href="/manifest.json">
    </head><body><script type="module" src="/assets/index-D6thvleY.js"></script></body></html>`;
    assert.deepEqual(linkedAssets(page), ["/assets/index-D6thvleY.js", "/assets/vendor-X1.js", "/assets/index-oQSIhMuu.css"]);
  });
});
