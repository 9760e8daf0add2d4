/**
 * Property-based fuzzing of every endpoint in ENDPOINTS (issue 9, item 2): for each endpoint,
 * FUZZ_RUNS (200 in CI) requests generated from its parameter declarations, each checked by
 * ./fuzz-app.ts (no hang, no 5xx, documented success shape or a 4xx Zulip error, and a failed
 * request changes nothing). Longer runs: `npm run fuzz -- --long` (README, Tests).
 *
 * Endpoints run in ENDPOINTS order in a shared, seeded realm (./fuzz-realm.ts); seeding costs about
 * as much as fuzzing one endpoint, so the realm is rebuilt only after an endpoint that consumes
 * what later ones need (CONSUMING). What a success does to the fuzzing accounts themselves is
 * repaired after each run (repairCast).
 * Each endpoint's seed derives from one base seed: `FUZZ_SEED=<base>` replays a whole run exactly;
 * adding `FUZZ_ENDPOINT` replays one endpoint from a fresh realm, the same one unless an earlier
 * endpoint since the last rebuild shaped the state.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { getHeapStatistics } from "node:v8";
import fc from "fast-check";
import { ENDPOINTS } from "../../src/api/index.js";
import { EXTERNAL_HOST } from "../helpers/fixtures.js";
import type { StoreKind } from "../helpers/stores.js";
import { checkRequest, openFuzzApp, type FuzzApp } from "./fuzz-app.js";
import { createFuzzRealm, repairCast, type FuzzRealm } from "./fuzz-realm.js";
import { openApiOperations } from "./openapi-operations.js";
import { describeRequest, requestArbitrary } from "./requests.js";
import { endpointLabel, endpointSeed, fuzzSettings } from "./settings.js";

const settings = fuzzSettings();
const openapi = openApiOperations();
const selected = ENDPOINTS.filter((ep) => !settings.endpointFilter || endpointLabel(ep).includes(settings.endpointFilter));

/**
 * Endpoints after which the seeded realm is rebuilt, because 200 runs of them use up what later
 * endpoints need: they archive channels or unsubscribe their members, delete messages, deactivate
 * groups or profile fields, or change realm-wide policies. Other deletions (drafts, tokens, alert
 * words, …) leave the rest of the suite its targets, and the accounts are repaired after each run.
 */
const CONSUMING = new Set([
  "PATCH /realm",
  "PATCH /realm/user_settings_defaults",
  "DELETE /realm/profile_fields/:field_id",
  "POST /user_groups/:user_group_id/deactivate",
  "PATCH /user_groups/:user_group_id",
  "PATCH /streams/:stream_id",
  "DELETE /streams/:stream_id",
  "DELETE /users/me/subscriptions",
  "DELETE /messages/:message_id",
  "POST /streams/:stream_id/delete_topic",
]);

/**
 * The most the suite's heap (the in-process server and the generator together) may reach. A run
 * peaks near 400 MiB; the bound leaves room for V8's collection timing and fails long before the
 * 4 GiB heap limit, where a request that makes the server allocate without bound used to abort
 * the whole test process instead of failing one test (issue 22).
 */
const HEAP_BOUND_MIB = 1_536;
const heapMiB = () => Math.round(getHeapStatistics().used_heap_size / 2 ** 20);

/** The fuzz suite on one store; each store has a test file of its own, so that they run in parallel. */
export function fuzzSuite(kind: StoreKind): void {
  describe(`API fuzzing [${kind}]`, () => {
    let fuzz: FuzzApp;
    let realm: FuzzRealm | undefined;
    let realms = 0;
    let peakHeap = { mib: heapMiB(), at: "start" };
    before(async () => {
      fuzz = await openFuzzApp(kind);
    });
    after(() => fuzz.close());

    it("has its reference data, or says what it skips", (t) => {
      const labels = new Set(ENDPOINTS.map(endpointLabel));
      assert.deepEqual([...CONSUMING].filter((label) => !labels.has(label)), [], "CONSUMING names endpoints that exist");
      t.diagnostic(`base seed ${settings.seed}, ${settings.runs} runs per endpoint, ${selected.length} endpoints`);
      if (!openapi.available) t.diagnostic("SKIPPED: parameters are not generated from, nor answers held to, the OpenAPI document (../shared/reference/zulip-openapi-current.yaml is absent)");
    });

    for (const ep of selected) {
      it(endpointLabel(ep), async (t) => {
        const started = Date.now();
        // What earlier endpoints published or logged is no longer compared against: let it go.
        fuzz.events.length = 0;
        fuzz.errorLog.length = 0;
        realm ??= await createFuzzRealm(fuzz.app, fuzz.deps, `fz${realms++}`, EXTERNAL_HOST);
        const current = realm;
        const op = openapi.find(ep.method, ep.path);
        const requests = requestArbitrary(ep, { pools: current.pools, schemas: op?.params ?? {}, resolve: openapi.resolve }).map((req) =>
          Object.assign(req, { [fc.toStringMethod]: () => describeRequest(ep, req) }),
        );
        let repairs = 0;
        const seed = endpointSeed(settings.seed, ep);
        try {
          await fc.assert(
            fc.asyncProperty(requests, async (req) => {
              const { problems, succeeded } = await checkRequest(fuzz, current, ep, req, settings.timeoutMs);
              if (succeeded) repairs += await repairCast(fuzz.deps, current);
              const heap = heapMiB();
              if (heap > peakHeap.mib) peakHeap = { mib: heap, at: endpointLabel(ep) };
              if (heap > HEAP_BOUND_MIB) problems.push(`heap at ${heap} MiB after this request, past the suite's bound of ${HEAP_BOUND_MIB} MiB`);
              if (problems.length > 0) throw new Error(problems.join("\n"));
            }),
            { numRuns: settings.runs, seed },
          );
        } catch (error) {
          const replay = `replay: FUZZ_SEED=${settings.seed} npm run fuzz (add FUZZ_ENDPOINT="${endpointLabel(ep)}" for this endpoint alone)`;
          // Reporters other than spec leave the cause out: the broken properties go in the message.
          const broken = ((error as Error).cause as Error | undefined)?.message ?? "";
          throw new Error(`${replay}\n${(error as Error).message}\n${broken}`, { cause: error });
        } finally {
          if (CONSUMING.has(endpointLabel(ep))) realm = undefined;
        }
        t.diagnostic(`${settings.runs} runs in ${Date.now() - started} ms, seed ${seed}, ${repairs} cast repairs, heap ${heapMiB()} MiB${op ? "" : ", not in the OpenAPI document"}`);
      });
    }

    it(`keeps its heap under ${HEAP_BOUND_MIB} MiB`, (t) => {
      t.diagnostic(`peak heap [${kind}]: ${peakHeap.mib} MiB (during ${peakHeap.at}), bound ${HEAP_BOUND_MIB} MiB`);
      assert.ok(peakHeap.mib <= HEAP_BOUND_MIB, `peak heap ${peakHeap.mib} MiB during ${peakHeap.at}`);
    });
  });
}
