/**
 * The contract's own test (issue 15, item 2): every operation Parley serves is described (by Zulip's
 * current OpenAPI document or by newer-schemas.ts), every schema compiles, the hooks are wired into
 * the apps tests build (a violating answer or event fails its request), and, run last by
 * scripts/run-tests.mjs, how many operations and event types the whole run validated. Skips visibly
 * when ../shared is absent.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ENDPOINTS } from "../../src/api/index.js";
import { endpoint } from "../../src/http/endpoint.js";
import { describeTarget } from "../helpers/contract/apply-deviations.js";
import { DEVIATIONS } from "../helpers/contract/deviations.js";
import { OPENAPI_PATH } from "../helpers/contract/document.js";
import { ContractViolation, stats } from "../helpers/contract/hook.js";
import { contract } from "../helpers/contract/validator.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { buildEndpointApp, send } from "../helpers/http.js";

const checker = contract();
const collecting = process.env.PARLEY_CONTRACT_COLLECT !== undefined;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the API contract", { skip: checker ? false : `${OPENAPI_PATH} is absent: answers and events are not validated` }, () => {
  let t: TestRealm;
  before(async () => {
    t = await createTestRealm("sqlite");
  });
  after(() => t.close());

  it("describes every operation Parley serves, and compiles each schema once", (t) => {
    const started = performance.now();
    const bySource = new Map<string, string[]>();
    for (const ep of ENDPOINTS) {
      const source = checker!.sourceOf(ep.method, ep.path) ?? "nothing";
      bySource.set(source, [...(bySource.get(source) ?? []), `${ep.method} ${ep.path}`]);
      checker!.compileOperation(ep.method, ep.path);
    }
    const events = checker!.compileEvents();
    const errorShapes = checker!.compileErrorShapes();
    t.diagnostic(`${ENDPOINTS.length} operations: ${bySource.get("document")?.length ?? 0} described by the document (FL 378), ${bySource.get("newer-schemas.ts")?.length ?? 0} by newer-schemas.ts`);
    t.diagnostic(`${events.length} event types/ops and ${errorShapes} error shapes described; compiled in ${Math.round(performance.now() - started)} ms`);
    assert.deepEqual(bySource.get("nothing") ?? [], [], "operations neither the document nor newer-schemas.ts describes");
  });

  it("lists every deviation with its reason, by kind and owner", (t) => {
    const counts = new Map<string, number>();
    for (const d of DEVIATIONS) {
      const key = d.kind === "pending" ? `pending (${d.owner})` : d.kind;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      assert.ok(d.why.length > 10, `${describeTarget(d.target)}: say why`);
    }
    for (const [key, n] of counts) t.diagnostic(`${n} ${key}`);
  });

  it("is wired into every app a test builds", () => {
    const unwired = testFiles("test").filter((file) => {
      const text = readFileSync(file, "utf8");
      const buildsApp = /\bbuildApp\(|\bFastify\(/.test(text);
      return buildsApp && !/from "[./]*\/?(helpers\/)?fixtures\.js"|from "\.\/fixtures\.js"/.test(text) && !file.endsWith("fixtures.ts");
    });
    assert.deepEqual(unwired, [], "files building an app without importing test/helpers/fixtures.ts (which installs the hooks)");
    assert.ok(stats.installed, "the hooks are installed");
  });

  it("validates answers and queued events of a test realm", async () => {
    const [answers, events] = [stats.responses, stats.events];
    const queue = await t.as("hamlet").post("/register", { event_types: ["message"] });
    await t.as("othello").post("/messages", { type: "direct", to: [t.users.hamlet.id], content: "hi" });
    await t.as("hamlet").get("/events", { queue_id: queue.body.queue_id, dont_block: true });
    assert.ok(stats.responses >= answers + 3, "three answers validated");
    assert.ok(stats.events > events, "the message event validated");
    assert.ok(stats.operations.has("POST /register") && stats.eventTypes.has("message"));
  });

  it("fails the request whose answer or event breaks the contract", { skip: collecting ? "collecting mode records instead of failing" : false }, async () => {
    const bogus = endpoint({ method: "GET", path: "/users/me", auth: "none", params: {}, async handler() { return { bogus: 1 }; } });
    const app = await buildEndpointApp([bogus]);
    try {
      await assert.rejects(send(app.app, "GET", "/users/me"), (error: Error) => {
        assert.ok(error instanceof ContractViolation);
        assert.match(error.message, /GET \/users\/me → 200: \(root\) additionalProperties: .*"additionalProperty":"bogus"/);
        return true;
      });
    } finally {
      await app.close();
    }
    const queue = await t.as("hamlet").post("/register", {});
    t.deps.queues.get(queue.body.queue_id)!.push({ type: "realm_user", op: "add", person: { user_id: "x" } });
    await assert.rejects(t.as("hamlet").get("/users/me"), /event realm_user\/add: \/person\/user_id type: must be integer/);
  });

  it("sums up what the whole run validated", (t) => {
    const dir = process.env.PARLEY_CONTRACT_STATS;
    if (!dir || !existsSync(dir)) return t.skip("run through `npm test` for the run's totals");
    const runs = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as { operations: string[]; eventTypes: string[]; responses: number; events: number; violations: number });
    const operations = new Set(runs.flatMap((r) => r.operations));
    const eventTypes = new Set(runs.flatMap((r) => r.eventTypes));
    const sum = (key: "responses" | "events" | "violations") => runs.reduce((n, r) => n + r[key], 0);
    const unexercised = ENDPOINTS.map((ep) => `${ep.method} ${ep.path}`).filter((op) => !operations.has(op));
    t.diagnostic(`contract: ${operations.size} of ${ENDPOINTS.length} operations and ${eventTypes.size} event types/ops validated in ${runs.length} test processes (${sum("responses")} answers, ${sum("events")} events, ${sum("violations")} violations)`);
    if (unexercised.length > 0) t.diagnostic(`operations no test answered: ${unexercised.join(", ")}`);
    assert.ok(runs.length > 1 && operations.size > 0 && eventTypes.size > 0, "the other test files reported what they validated");
    if (!collecting) assert.equal(sum("violations"), 0);
  });
});
