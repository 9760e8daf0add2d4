/**
 * Every endpoint names a missing required parameter the way Zulip's MissingArgumentError does
 * (OpenAPI components/schemas/MissingArgumentError): code REQUEST_VARIABLE_MISSING, the message
 * "Missing 'x' argument" and `var_name: "x"` (issue 15). Walks the whole endpoint table, calling
 * each endpoint that has a required form parameter with none at all, as the owner, so that no
 * permission gate answers first; path parameters get a syntactically valid value.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENDPOINTS } from "../../src/api/index.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { send } from "../helpers/http.js";
import { STORE_KINDS } from "../helpers/stores.js";

/** The declaration-order first required parameter read from the form, if the endpoint has one. */
function firstRequiredFormParam(params: Record<string, { required: boolean; inPath: boolean }>): string | undefined {
  return Object.entries(params).find(([, spec]) => spec.required && !spec.inPath)?.[0];
}

for (const kind of STORE_KINDS) {
  describe(`missing parameters [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
    });
    after(() => t.close());

    it("answer REQUEST_VARIABLE_MISSING with var_name on every endpoint", async () => {
      const owner = t.users.desdemona;
      let checked = 0;
      for (const ep of ENDPOINTS) {
        const name = firstRequiredFormParam(ep.params);
        if (name === undefined) continue;
        const path = ep.path.replace(/:[a-z_]+/g, "1");
        const res = await send(t.app, ep.method, path, { user: owner, headers: { host: t.host } });
        const where = `${ep.method} ${ep.path}: ${JSON.stringify(res.body)}`;
        assert.equal(res.status, 400, where);
        assert.deepEqual(
          { code: res.body.code, msg: res.body.msg, var_name: res.body.var_name },
          { code: "REQUEST_VARIABLE_MISSING", msg: `Missing '${name}' argument`, var_name: name },
          where,
        );
        checked++;
      }
      assert.ok(checked > 40, `only ${checked} endpoints have required parameters?`);
    });
  });
}
