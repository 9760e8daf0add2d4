/**
 * The permission matrix (issue 9, item 1): every endpoint of ENDPOINTS, called by ten kinds of
 * caller, gets exactly the outcome permission-expectations.ts gives for that cell (HTTP status,
 * `code` and `msg` of a refusal, or success).
 *
 *   callers  no credentials · a bad API key · a deactivated user · a user of realm B with valid
 *            credentials on realm A's host · guest · member · moderator · administrator · owner · bot
 *   rows     "METHOD /path" for each endpoint; a new endpoint without a sample and an expectation
 *            fails here, and so does an expectation for an endpoint that no longer exists
 *   requests permission-samples.ts: valid parameters pointing at objects made for the cell, so each
 *            call reaches the permission check; objects a call changes are fresh for every cell,
 *            and calls that change the caller's own account run as a fresh account of the role
 *
 * One world (realms A and B) per store is built once and shared by all cells.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENDPOINTS } from "../../src/api/index.js";
import type { ApiResponse } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { callRow, endpointKey, IDENTITIES, type MatrixState } from "./matrix-cells.js";
import { Objects } from "./objects.js";
import { EXPECTATIONS, type Outcome } from "./permission-expectations.js";
import { createShared, SAMPLES } from "./permission-samples.js";
import { createWorld } from "./world.js";

/** How a response differs from the expected outcome, or null when it matches. */
function mismatch(res: ApiResponse, expected: Outcome): string | null {
  if (expected === "ok") return res.status === 200 && res.body.result === "success" ? null : "expected success";
  const { code, msg } = res.body;
  if (res.status === expected.status && code === expected.code && msg === expected.msg) return null;
  return `expected ${expected.status} ${expected.code} "${expected.msg}", got ${res.status} ${code} "${msg ?? ""}"`;
}

describe("permission matrix tables", () => {
  const keys = ENDPOINTS.map(endpointKey).sort();

  it("has a sample request and an expectation for every endpoint, and nothing else", () => {
    assert.deepEqual(Object.keys(SAMPLES).sort(), keys, "samples (permission-samples.ts) vs ENDPOINTS");
    assert.deepEqual(Object.keys(EXPECTATIONS).sort(), keys, "expectations (permission-expectations.ts) vs ENDPOINTS");
    for (const key of keys) assert.deepEqual(Object.keys(EXPECTATIONS[key]).sort(), [...IDENTITIES].sort(), `${key}: one outcome per caller`);
  });
});

for (const kind of STORE_KINDS) {
  describe(`permission matrix [${kind}]`, () => {
    let state: MatrixState;
    before(async () => {
      const world = await createWorld(kind);
      const o = new Objects(world.a);
      state = { world, o, shared: await createShared(o), deactivated: await o.deactivatedUser() };
    });
    after(() => state.world.close());

    for (const ep of ENDPOINTS) {
      const key = endpointKey(ep);
      it(key, async () => {
        const expected = EXPECTATIONS[key];
        assert.ok(expected && SAMPLES[key], `${key} has no sample or expectation: add it to the matrix tables`);
        const row = await callRow(state, ep);
        const wrong: string[] = [];
        for (const identity of IDENTITIES) {
          const res = row[identity];
          const problem = mismatch(res, expected[identity]);
          if (problem) wrong.push(`${identity}: ${problem} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
        assert.deepEqual(wrong, [], `${key}\n${wrong.join("\n")}`);
      });
    }
  });
}
