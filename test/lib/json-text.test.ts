/** Pre-serialised response values (src/lib/json-text.ts): the same JSON as serialising the values. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonText, hasJsonText, stringifyWithJsonText } from "../../src/lib/json-text.js";

describe("JsonText", () => {
  const users = [{ user_id: 1, full_name: "Ünïcode \"quoted\"", profile_data: {} }];
  const body = { result: "success", msg: "", realm_users: new JsonText(JSON.stringify(users)), skipped: undefined, n: 3, nested: { a: [1] } };
  const plain = { result: "success", msg: "", realm_users: users, skipped: undefined, n: 3, nested: { a: [1] } };

  it("splices the text in, leaving out members without a JSON form like JSON.stringify", () => {
    assert.equal(stringifyWithJsonText(body), JSON.stringify(plain));
    assert.deepEqual(JSON.parse(stringifyWithJsonText(body)), JSON.parse(JSON.stringify(plain)));
  });

  it("serialises to the same JSON through JSON.stringify too", () => {
    assert.equal(JSON.stringify(body), JSON.stringify(plain));
  });

  it("is found only at the top level", () => {
    assert.equal(hasJsonText(body), true);
    assert.equal(hasJsonText(plain), false);
  });
});
